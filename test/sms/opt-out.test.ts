// The opt-out list (docs/receiving.md, opt-out) through the real routes and the real inbox
// watcher (a fake termux-sms-list): keywords change the list only with SMS_GATEWAY_OPT_OUT,
// each change is confirmed once through the queue, HELP is answered when set, and the list
// is honoured on every path (409 on the synchronous send, failed/opted_out on the queue and
// at the hand-off of a message queued before the STOP).
import t, { type Test } from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import type { HandoffResult } from '../../src/sms/handoff.js';
import type { Sender } from '../../src/sms/senders.js';
import { DEFAULT_OPT_IN_REPLY, DEFAULT_OPT_OUT_REPLY } from '../../src/core/opt-out-settings.js';

const ANNA = '+4915112345678';
const BOB = '+15551230001';

/** An app whose inbox watcher reads a fake inbox; receive() adds an SMS and polls. */
async function withInbox(t: Test, opts: TestAppOptions = {}, home = tempDir(t)) {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const a = await testApp(t, { inbox: true, deviceEnv: fake.env, home, ...opts });
  const inbox: Record<string, unknown>[] = [
    { _id: 10, threadid: 1, type: 'inbox', read: true, address: BOB, received: '2026-11-20 08:00:00', body: 'old' },
  ];
  fake.output('termux-sms-list', JSON.stringify(inbox));
  await a.gateway.inbox.watcher.pollOnce();
  let id = 10;
  const receive = async (from: string, body: string) => {
    id++;
    inbox.unshift({
      _id: id,
      threadid: 1,
      type: 'inbox',
      read: false,
      address: from,
      received: '2026-11-21 12:00:01',
      body,
    });
    fake.output('termux-sms-list', JSON.stringify(inbox));
    await a.gateway.inbox.watcher.pollOnce();
    await a.gateway.sending.lane.runDue();
  };
  const messages = async () =>
    (await a.get('/api/messages?limit=100')).json().data as {
      to: string;
      body: string;
      status: string;
      reason: string | null;
    }[];
  const listed = async () => ((await a.get('/api/opt-outs')).json().data as { number: string }[]).map((e) => e.number);
  return { ...a, receive, messages, listed, fake };
}

const on = { optOut: { enabled: true } };

t.test(
  'STOP with SMS_GATEWAY_OPT_OUT: listed, one confirmation through the queue, handed off to the listed number',
  async (t) => {
    const a = await withInbox(t, on);
    await a.receive(ANNA, '  Stop! ');
    t.same(await a.listed(), [ANNA], 'on the list');
    t.match(await a.messages(), [{ to: ANNA, body: DEFAULT_OPT_OUT_REPLY, status: 'sent' }], 'one confirmation, sent');
    t.same(
      a.handoffs.map((h) => h.number),
      [ANNA],
      'the confirmation itself is not blocked by the list',
    );
    await a.clock.tick(11 * 60_000);
    await a.receive(ANNA, 'STOP');
    t.equal((await a.messages()).length, 1, 'a second STOP changes nothing: no second confirmation');
    await a.receive(ANNA, 'start');
    t.same(await a.listed(), [], 'START takes it off');
    t.match((await a.messages())[0], { to: ANNA, body: DEFAULT_OPT_IN_REPLY }, 'confirmed');
  },
);

t.test('without SMS_GATEWAY_OPT_OUT keywords change nothing', async (t) => {
  const a = await withInbox(t);
  await a.receive(ANNA, 'STOP');
  t.same(await a.listed(), []);
  t.same(await a.messages(), []);
});

t.test('near misses are no keyword', async (t) => {
  const a = await withInbox(t, on);
  for (const body of ['STOPPED', 'stop by later', 'S TOP', 'please stop']) await a.receive(ANNA, body);
  t.same(await a.listed(), []);
  t.same(await a.messages(), []);
});

t.test('HELP is answered only when SMS_GATEWAY_HELP_REPLY is set; empty replies send nothing', async (t) => {
  const quiet = await withInbox(t, on);
  await quiet.receive(ANNA, 'HELP');
  t.same(await quiet.messages(), [], 'no help text: no answer');
  const a = await withInbox(t, {
    optOut: { enabled: true, helpReply: 'Texts from ACME. Reply STOP to end.', optOutReply: '' },
  });
  await a.receive(ANNA, 'info');
  t.match(await a.messages(), [{ to: ANNA, body: 'Texts from ACME. Reply STOP to end.' }]);
  await a.clock.tick(11 * 60_000);
  await a.receive(ANNA, 'STOP');
  t.same(await a.listed(), [ANNA], 'listed');
  t.equal((await a.messages()).length, 1, 'SMS_GATEWAY_OPT_OUT_REPLY empty: no confirmation');
});

t.test('a confirmation is never queued twice for one received SMS, also across a restart', async (t) => {
  const home = tempDir(t);
  const first = await withInbox(t, on, home);
  await first.receive(ANNA, 'STOP');
  t.equal((await first.messages()).length, 1);
  await first.gateway.inbox.watcher.pollOnce(); // the same inbox read again
  await first.gateway.stopBackground(1000);
  const again = await testApp(t, {
    ...on,
    inbox: true,
    deviceEnv: first.fake.env,
    home,
    clock: fakeClock(first.clock.now() + 3600_000),
  });
  await again.gateway.inbox.watcher.pollOnce();
  await again.gateway.sending.lane.runDue();
  t.equal((await again.get('/api/messages?limit=100')).json().data.length, 1, 'after the restart: still one');
});

t.test('loop and cost protection: not dialable, one per sender per 10 minutes, 30 an hour', async (t) => {
  const a = await withInbox(t, on);
  await a.receive('ACME', 'STOP');
  await a.receive('12345', 'STOP');
  t.same(await a.messages(), [], 'an alphanumeric sender and a short code get no answer');
  await a.receive(ANNA, 'STOP');
  await a.receive(ANNA, 'START');
  t.equal((await a.messages()).length, 1, 'the START 0 minutes later is not answered (one per sender per 10 minutes)');
  t.same(await a.listed(), ['12345'], 'but it took effect (the short code stays listed: no message goes to it)');
  for (let i = 0; i < 30; i++) await a.receive(`+1201555${String(i).padStart(4, '0')}`, 'STOP');
  t.equal((await a.messages()).length, 30, 'at most 30 an hour in all');
  const metrics = (await a.get('/metrics')).body;
  const shortCode = /sms_gateway_auto_replies_skipped_total\{reason="number_type"\} 1/;
  t.match(metrics, shortCode, 'the short code (ACME is never listed)');
  t.match(metrics, /sms_gateway_auto_replies_skipped_total\{reason="sender_limit"\} 1/);
  t.match(metrics, /sms_gateway_auto_replies_skipped_total\{reason="hourly_limit"\} 1/);
  t.match(metrics, /sms_gateway_opted_out_numbers 31/);
  await a.clock.tick(3600_000);
  await a.receive('+12015559999', 'STOP');
  t.equal((await a.messages()).length, 31, 'an hour later answers go out again');
});

t.test('POST /api/sms/send to a listed number: 409 recipient_opted_out, nothing recorded or handed off', async (t) => {
  const a = await testApp(t);
  t.equal(
    (
      await a.app.inject({
        method: 'POST',
        url: '/api/opt-outs',
        headers: a.auth,
        payload: { number: '+49 151 1234-5678' },
      })
    ).statusCode,
    201,
  );
  const res = await a.send({ to: ANNA, message: 'hello' });
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'recipient_opted_out');
  t.same(a.handoffs, []);
  t.equal((await a.get('/api/messages')).json().pagination.total, 0, 'nothing recorded');
  t.equal((await a.send({ to: BOB, message: 'hello' })).statusCode, 200, 'another number is sent');
});

t.test(
  'the same digits with or without + are one number: refused on every path, one entry, taken off in either form',
  async (t) => {
    const a = await withInbox(t, on);
    const bare = ANNA.slice(1);
    await a.receive(ANNA, 'STOP');
    const res = await a.send({ to: bare, message: 'hello' });
    t.equal(res.statusCode, 409, 'a send to the digits without + is refused');
    t.equal(res.json().error.code, 'recipient_opted_out');
    const queued = await a.queue({ to: [bare], message: 'later' });
    t.match(
      queued.json().data,
      [{ to: bare, status: 'failed', reason: 'opted_out' }],
      'the queue records it failed/opted_out',
    );
    const post = await a.app.inject({
      method: 'POST',
      url: '/api/opt-outs',
      headers: a.auth,
      payload: { number: bare },
    });
    t.equal(post.statusCode, 200, 'listed already, in its other form');
    t.equal(post.json().data.number, ANNA, 'with the entry that lists it');
    t.same(await a.listed(), [ANNA], 'one entry');
    t.equal(
      (await a.app.inject({ method: 'DELETE', url: `/api/opt-outs/${bare}`, headers: a.auth })).statusCode,
      204,
      'taken off in the other form',
    );
    t.same(await a.listed(), [], 'off the list');
    t.equal((await a.send({ to: bare, message: 'hello again' })).statusCode, 200, 'sent again');
    const handed = a.handoffs.map((h) => h.number);
    t.same(handed.slice(-1), [bare]);
    t.notOk(handed.slice(0, -1).includes(bare), 'nothing was handed off to it while it was listed');
  },
);

t.test(
  'a synchronous send waiting for its slot whose recipient opts out meanwhile: 409, nothing recorded or handed off',
  async (t) => {
    const clock = fakeClock();
    const numbers: string[] = [];
    let release: ((r: HandoffResult) => void) | undefined;
    const sender: Sender = {
      send: (h) => {
        numbers.push(h.number);
        return numbers.length === 1 ? new Promise<HandoffResult>((r) => (release = r)) : Promise.resolve({ ok: true });
      },
    };
    const a = await testApp(t, { clock, sender });
    await a.queue({ to: BOB, message: 'a slow hand-off' });
    a.gateway.sending.lane.notify();
    for (let i = 0; i < 100 && !release; i++) await new Promise((r) => setImmediate(r));
    t.ok(release, 'the queued hand-off holds the lane');
    const res = a.app.inject({
      method: 'POST',
      url: '/api/sms/send',
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: { to: ANNA, message: 'hello' },
    });
    for (let i = 0; i < 1000 && a.gateway.sending.lane.pendingSyncSegments() === 0; i++)
      await new Promise((r) => setImmediate(r));
    t.equal(a.gateway.sending.lane.pendingSyncSegments(), 1, 'accepted, waiting for its slot');
    clock.advance(1000);
    t.equal(
      (await a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: ANNA } }))
        .statusCode,
      201,
    );
    release!({ ok: true });
    await clock.tick(1000);
    const r = await res;
    t.equal(r.statusCode, 409);
    t.equal(r.json().error.code, 'recipient_opted_out');
    t.same(numbers, [BOB], 'never handed off');
    t.same(
      ((await a.get('/api/messages')).json().data as { to: string }[]).map((m) => m.to),
      [BOB],
      'nothing recorded for it',
    );
    t.equal((await a.send({ to: BOB, message: 'next' })).statusCode, 200, 'the refusal consumed no spacing');
  },
);

t.test('POST /api/messages: a listed recipient is failed/opted_out at once, the others queued', async (t) => {
  const a = await testApp(t, { webhookUrls: ['http://127.0.0.1:9/hook'] });
  await a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: ANNA } });
  const res = await a.queue({ to: [ANNA, BOB], message: 'hello' });
  t.equal(res.statusCode, 202);
  t.match(res.json().data, [
    { to: ANNA, status: 'failed', reason: 'opted_out', billedSegments: 0 },
    { to: BOB, status: 'queued', reason: null },
  ]);
  await a.gateway.sending.lane.runDue();
  t.same(
    a.handoffs.map((h) => h.number),
    [BOB],
    'only the other recipient is handed off',
  );
  const failed = (
    a.db.prepare(`SELECT record AS body FROM webhook_events WHERE type = 'sms.failed'`).all() as { body: string }[]
  ).map((e) => JSON.parse(e.body).data);
  t.match(failed, [{ to: ANNA, reason: 'opted_out' }], 'one sms.failed event');
});

t.test('a message queued an hour ahead whose recipient texts STOP meanwhile is never handed off', async (t) => {
  const a = await withInbox(t, { ...on, optOut: { enabled: true, optOutReply: '' } });
  const res = await a.queue({
    to: ANNA,
    message: 'your appointment',
    sendAt: new Date(a.clock.now() + 3600_000).toISOString(),
  });
  const id = res.json().data[0].id as string;
  await a.clock.tick(60_000);
  await a.receive(ANNA, 'STOP');
  await a.clock.tick(3600_000);
  await a.gateway.sending.lane.runDue();
  t.same(a.handoffs, [], 'nothing handed off');
  t.match((await a.get(`/api/messages/${id}`)).json().data, {
    status: 'failed',
    reason: 'opted_out',
    billedSegments: 0,
  });
});

t.test('an opt-in confirmation still waiting when its number texts STOP again is never handed off', async (t) => {
  const a = await withInbox(t, { ...on, quietHours: parseQuietHours('11:00-13:00') as QuietHours });
  await a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: ANNA } });
  await a.receive(ANNA, 'START');
  t.match(
    await a.messages(),
    [{ to: ANNA, body: DEFAULT_OPT_IN_REPLY, status: 'queued' }],
    'confirmed, held by the quiet hours',
  );
  await a.receive(ANNA, 'STOP');
  t.same(await a.listed(), [ANNA], 'listed again (its own confirmation skipped: one per sender per 10 minutes)');
  await a.clock.tick(3600_000);
  await a.gateway.sending.lane.runDue();
  t.same(a.handoffs, [], '"You are subscribed again" never reaches a number on the list');
  t.match(await a.messages(), [{ body: DEFAULT_OPT_IN_REPLY, status: 'failed', reason: 'opted_out' }]);
});

t.test('the API: add, list paged, remove, 404, 400, auth', async (t) => {
  const a = await testApp(t);
  const post = (number: unknown) =>
    a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number } });
  const first = await post('+49 (151) 123.456-78');
  t.equal(first.statusCode, 201);
  t.match(first.json().data, { number: ANNA, optedOut: true, by: 'api' });
  t.equal((await post(ANNA)).statusCode, 200, 'listed already: 200 with its entry');
  a.clock.advance(1000);
  t.equal((await post(BOB)).statusCode, 201);
  t.equal((await post('call me')).statusCode, 400);
  const page = (await a.get('/api/opt-outs?limit=1')).json();
  t.same(
    page.data.map((e: { number: string }) => e.number),
    [BOB],
    'newest first',
  );
  t.same(page.pagination, { limit: 1, offset: 0, total: 2, hasNext: true });
  const del = (n: string) =>
    a.app.inject({ method: 'DELETE', url: `/api/opt-outs/${encodeURIComponent(n)}`, headers: a.auth });
  t.equal((await del(ANNA)).statusCode, 204);
  t.equal((await del(ANNA)).statusCode, 404);
  t.equal((await del('+15550009999')).statusCode, 404, 'never listed: 404, not 204');
  t.equal((await del('+15550009999')).statusCode, 404, 'and still 404 the second time');
  t.equal(
    (await a.app.inject({ method: 'DELETE', url: '/api/opt-outs/+15550008888', headers: a.auth })).statusCode,
    404,
    'a + written as is in the path: the same number, 404',
  );
  const bad = await del('abc');
  t.equal(bad.statusCode, 400);
  t.match(
    bad.json().error.message,
    /^Invalid request: params\.number must be a phone number/,
    'names the path parameter, not a body',
  );
  t.match((await post('call me')).json().error.message, /^Invalid request: body\.number must be a phone number/);
  t.equal((await a.app.inject({ url: '/api/opt-outs' })).statusCode, 401);
  t.equal((await a.send({ to: ANNA, message: 'hello' })).statusCode, 200, 'taken off: sent again');
});

t.test('an MQTT send to a listed number: recipient_opted_out on the errors topic, recorded failed', async (t) => {
  const { createSendIntake } = await import('../../src/mqtt/send-intake.js');
  const { topicsFor } = await import('../../src/mqtt/topics.js');
  const a = await testApp(t);
  await a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: ANNA } });
  const topics = topicsFor('sms-gateway', 'gw1');
  const published: { topic: string; body: { error: { code: string }; id?: string } }[] = [];
  const intake = createSendIntake({
    enqueue: a.gateway.sending.enqueue,
    topics,
    contacts: [],
    publish: (topic, payload) => published.push({ topic, body: JSON.parse(payload) }) > 0,
  });
  await intake.handle(topics.send, Buffer.from(JSON.stringify({ to: [ANNA, BOB], message: 'hi', id: 'k1' })));
  t.match(
    published,
    [{ topic: topics.errors, body: { error: { code: 'recipient_opted_out' }, id: 'k1' } }],
    'one answer, naming the request',
  );
  await a.gateway.sending.lane.runDue();
  t.same(
    a.handoffs.map((h) => h.number),
    [BOB],
  );
});
