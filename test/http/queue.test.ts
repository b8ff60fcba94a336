// POST /api/messages and DELETE /api/messages/:id over the real hooks: the 202 answer and
// its records, every refusal (nothing queued), Idempotency-Key (also a repeat that arrives
// while the first is being answered), queue_full at 10 000 waiting, and retention that
// never prunes a waiting message.
import t from 'tap';
import { testApp } from '../helpers/test-app.js';
import { QUEUE_LIMIT } from '../../src/store/queue.js';
import { newMessageId } from '../../src/core/ids.js';
import { fillQueue } from '../helpers/fill-queue.js';

const waitingCount = (gateway: Awaited<ReturnType<typeof testApp>>['gateway']) => gateway.sending.queue.summary().count;

t.test('202 with one queued record per recipient, in the order given, with sendAt and expiresAt', async (t) => {
  const { queue, clock, gateway } = await testApp(t);
  await gateway.sending.lane.stop(); // nothing leaves during this test: the records stay as accepted
  const sendAt = new Date(clock.now() + 3600_000);
  const res = await queue({
    to: ['+1 555 010 0001', '+15550100002'],
    message: 'Practice moved to 18:00',
    simSlot: 2,
    sendAt: sendAt.toISOString().replace('Z', '+00:00'),
    expiresAt: new Date(clock.now() + 7200_000).toISOString(),
  });
  t.equal(res.statusCode, 202);
  const body = res.json();
  t.equal(body.success, true);
  t.equal(body.data.length, 2);
  t.match(body.data[0], {
    to: '+1 555 010 0001',
    body: 'Practice moved to 18:00',
    status: 'queued',
    reason: null,
    segments: 1,
    billedSegments: 0,
    simSlot: 2,
    encoding: 'gsm7',
    sourceIp: '192.168.1.22',
    sendAt: sendAt.toISOString(),
    expiresAt: new Date(clock.now() + 7200_000).toISOString(),
  });
  t.match(body.data[0].id, /^msg_/);
  t.not(body.data[0].id, body.data[1].id);
  t.equal(body.data[1].to, '+15550100002');
  t.equal(waitingCount(gateway), 2);
  t.match(gateway.sending.stats.allTime(), { accepted: 2, queued: 2, segments: 2 });
  const single = await queue({ to: '+15550100003', message: 'one' });
  t.equal(single.statusCode, 202);
  t.match(single.json().data, [{ to: '+15550100003', sendAt: null, expiresAt: null }], 'a string is one recipient');
});

t.test('any invalid part refuses the whole request, and nothing is queued', async (t) => {
  const { queue, clock, gateway } = await testApp(t);
  await gateway.sending.lane.stop();
  const soon = (ms: number) => new Date(clock.now() + ms).toISOString();
  const cases: [string, unknown, RegExp][] = [
    [
      'a bad second recipient',
      { to: ['+15550100001', 'call me'], message: 'x' },
      /body\.to\[1\] must be a phone number/,
    ],
    [
      'the same number twice',
      { to: ['+15550100001', '+1 555 010 0001'], message: 'x' },
      /body\.to\[1\] is the same number as body\.to\[0\]/,
    ],
    ['no recipients', { to: [], message: 'x' }, /body\.to/],
    [
      '101 recipients',
      { to: Array.from({ length: 101 }, (_, i) => `+1555011${String(i).padStart(4, '0')}`), message: 'x' },
      /body\.to/,
    ],
    ['an empty message', { to: '+15550100001', message: '  ' }, /body\.message is empty/],
    [
      'a SIM slot the phone does not have',
      { to: '+15550100001', message: 'x', simSlot: 3 },
      /simSlot 3 does not exist/,
    ],
    ['sendAt without a zone', { to: '+15550100001', message: 'x', sendAt: '2026-11-23T07:30:00' }, /body\.sendAt/],
    ['sendAt that is not a date', { to: '+15550100001', message: 'x', sendAt: 'tomorrow' }, /body\.sendAt/],
    [
      'sendAt more than 30 days ahead',
      { to: '+15550100001', message: 'x', sendAt: soon(31 * 86_400_000) },
      /more than 30 days ahead/,
    ],
    [
      'expiresAt before now',
      { to: '+15550100001', message: 'x', expiresAt: soon(-1000) },
      /expiresAt must be later than now/,
    ],
    ['an unknown field', { to: '+15550100001', message: 'x', priority: 'high' }, /priority/],
  ];
  for (const [name, body, message] of cases) {
    const res = await queue(body);
    t.equal(res.statusCode, 400, name);
    t.equal(res.json().error.code, 'invalid_request', name);
    t.match(res.json().error.message, message, name);
  }
  const long = await queue({ to: '+15550100001', message: 'x'.repeat(153 * 61) });
  t.equal(long.statusCode, 400);
  t.equal(long.json().error.code, 'message_too_long');
  t.equal(waitingCount(gateway), 0, 'nothing was queued');
  t.match(gateway.sending.stats.allTime(), { accepted: 0 });
  t.equal(
    (await queue({ to: '+15550100001', message: 'x', sendAt: soon(30 * 86_400_000) })).statusCode,
    202,
    '30 days ahead is fine',
  );
  t.equal(
    (await queue({ to: '+15550100001', message: 'x', sendAt: soon(-86_400_000) })).statusCode,
    202,
    'a past sendAt means now',
  );
});

t.test('sms_disabled, a text body and an oversized body are refused like on the send path', async (t) => {
  const off = await testApp(t, { runtime: { smsEnabled: false } });
  const res = await off.queue({ to: '+15550100001', message: 'x' });
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'sms_disabled');
  const { app, auth } = await testApp(t);
  const text = await app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '10.0.0.1',
    headers: { ...auth, 'content-type': 'text/plain' },
    payload: 'hi',
  });
  t.equal(text.statusCode, 415);
  const big = await app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '10.0.0.1',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ to: '1234', message: 'x'.repeat(17_000) }),
  });
  t.equal(big.statusCode, 413);
  const noKey = await app.inject({ method: 'POST', url: '/api/messages', remoteAddress: '10.0.0.1', payload: {} });
  t.equal(noKey.statusCode, 401);
  const outside = await app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '8.8.8.8',
    headers: auth,
    payload: {},
  });
  t.equal(outside.statusCode, 403);
});

t.test('Idempotency-Key: the first answer again, nothing queued twice; a different request is 400', async (t) => {
  const { queue, gateway, handoffs, send } = await testApp(t);
  const body = { to: ['+15550100001', '+15550100002'], message: 'once' };
  const first = await queue(body, { 'idempotency-key': 'batch-1' });
  t.equal(first.statusCode, 202);
  const again = await queue(body, { 'idempotency-key': 'batch-1' });
  t.equal(again.statusCode, 202);
  t.same(again.json(), first.json(), 'the same records, byte for byte');
  // Two at once: the first is committed synchronously, so the second finds it.
  const [a, b] = await Promise.all([
    queue({ to: '+15550100009', message: 'race' }, { 'idempotency-key': 'race' }),
    queue({ to: '+15550100009', message: 'race' }, { 'idempotency-key': 'race' }),
  ]);
  t.same(b.json(), a.json());
  t.equal(gateway.sending.stats.allTime().accepted, 3, 'three records in all');
  await gateway.sending.lane.runDue();
  const other = await queue({ to: '+15550100001', message: 'different' }, { 'idempotency-key': 'batch-1' });
  t.equal(other.statusCode, 400);
  t.match(other.json().error.message, /Idempotency-Key reused with a different request/);
  const crossed = await send({ to: '+15550100001', message: 'once' }, { 'idempotency-key': 'batch-1' });
  t.equal(crossed.statusCode, 400, 'a queue key reused on the send path is a different request');
  // The send moved the clock 1 s: the second recipient's slot may have come meanwhile.
  const once = handoffs.filter((h) => h.text === 'once').map((h) => h.number);
  t.ok(once.length >= 1 && once.length <= 2, 'the two recipients, at the pace');
  t.equal(new Set(once).size, once.length, 'none handed off twice');
  const bad = await queue(body, { 'idempotency-key': 'x'.repeat(129) });
  t.equal(bad.statusCode, 400);
});

t.test('a stored key is replayed even after sending was switched off (idempotent replays come first)', async (t) => {
  const { queue, home, clock } = await testApp(t);
  const first = await queue({ to: '+15550100001', message: 'before the switch' }, { 'idempotency-key': 'k' });
  t.equal(first.statusCode, 202);
  const off = await testApp(t, { home, clock, runtime: { smsEnabled: false } });
  const again = await off.queue({ to: '+15550100001', message: 'before the switch' }, { 'idempotency-key': 'k' });
  t.equal(again.statusCode, 202);
  t.same(again.json(), first.json());
});

t.test(`queue_full: at ${QUEUE_LIMIT} waiting the next request is 503 with Retry-After, nothing queued`, async (t) => {
  const { queue, db, gateway, clock } = await testApp(t);
  await gateway.sending.lane.stop();
  fillQueue(db, clock, 2);
  const three = await queue({ to: ['+15550100001', '+15550100002', '+15550100003'], message: 'x' });
  t.equal(three.statusCode, 503);
  t.equal(three.json().error.code, 'queue_full');
  t.equal(three.headers['retry-after'], '60');
  t.equal(three.json().retryAfterSeconds, 60);
  t.match(three.json().error.message, /holds 9998 waiting messages \(at most 10000\); nothing was queued/);
  t.equal(waitingCount(gateway), QUEUE_LIMIT - 2, 'nothing queued');
  t.equal(
    (await queue({ to: ['+15550100001', '+15550100002'], message: 'x' })).statusCode,
    202,
    'two more fit exactly',
  );
  t.equal((await queue({ to: '+15550100004', message: 'x' })).statusCode, 503);
});

t.test('retention: 1200 waiting and 1000 settled; settling more prunes settled ones only', async (t) => {
  const { queue, gateway, get } = await testApp(t);
  await gateway.sending.lane.stop();
  const m = gateway.sending.messages;
  const ids: string[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await queue({
      to: Array.from({ length: 100 }, (_, k) => `+1555${String(i).padStart(2, '0')}${String(k).padStart(5, '0')}`),
      message: `wave ${i}`,
    });
    t.equal(res.statusCode, 202);
    ids.push(...res.json().data.map((r: { id: string }) => r.id));
  }
  // 1000 settled messages from the send path.
  const settled: string[] = [];
  for (let i = 0; i < 1000; i++) {
    const row = m.insertStarted(
      {
        id: newMessageId(Date.now()),
        to: '1234',
        sendTo: '1234',
        body: `s${i}`,
        segments: 1,
        encoding: 'gsm7',
        simSlot: 1,
        sourceIp: '10.0.0.1',
        createdAt: 1,
        statsDay: '2026-11-21',
        idempotencyKey: null,
        requestHash: null,
      },
      2,
    );
    m.settle(row.id, { status: 'sent', reason: null, billedSegments: 0, at: 3, handedOff: true });
    settled.push(row.id);
  }
  t.equal(m.count(), 2200, 'nothing pruned: 1200 waiting + 1000 settled');
  // Settle 50 more (cancel them): the 50 oldest settled go, never a waiting one.
  for (const id of ids.slice(0, 50)) t.ok(m.cancel(id, 4));
  t.equal(m.count(), 2150);
  t.equal(waitingCount(gateway), 1150, 'every waiting message is still there');
  t.equal(m.get(settled[49]!), undefined, 'the 50th oldest settled one was pruned');
  t.ok(m.get(settled[50]!), 'the 51st is kept');
  for (const id of ids.slice(50)) if (!m.get(id)) t.fail(`waiting ${id} was pruned`);
  t.equal((await get('/api/messages?status=queued&limit=1')).json().pagination.total, 1150);
});
