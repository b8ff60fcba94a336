// The hand-off lane with a fake clock (docs/sending.md, queued sending):
// spacing, the shared rolling budget, the queue rate, quiet hours across midnight, sendAt
// order, a synchronous send overtaking the queue without breaking the budget, 100
// recipients at the pace, cancel, expiry, and the pause after a hung hand-off. Time only
// moves through clock.advance(); the lane is driven with runDue().
import t, { type Test } from 'tap';
import type { HandoffResult } from '../../src/sms/handoff.js';
import type { Sender } from '../../src/sms/senders.js';
import { pauseMs } from '../../src/sms/handoff-pause.js';
import { SYNC_SLOT_WAIT_MS } from '../../src/sms/sync-waiters.js';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

const TO = '+15550001111';

/** A sender that notes when (monotonic, fake) each hand-off started, and answers as told. */
function timedSender(clock: FakeClock, answer: () => HandoffResult = () => ({ ok: true })) {
  const log: { at: number; number: string; text: string }[] = [];
  const sender: Sender = {
    async send(h) {
      log.push({ at: clock.monotonicMs(), number: h.number, text: h.text });
      return answer();
    },
  };
  return { sender, log };
}

async function setup(
  t: Test,
  opts: {
    queueRate?: number;
    quietHours?: QuietHours;
    answer?: () => HandoffResult;
    start?: number;
    webhook?: boolean;
  } = {},
) {
  const clock = fakeClock(opts.start);
  const { sender, log } = timedSender(clock, opts.answer);
  const app = await testApp(t, {
    clock,
    sender,
    ...(opts.queueRate ? { queueRate: opts.queueRate } : {}),
    ...(opts.quietHours ? { quietHours: opts.quietHours } : {}),
    ...(opts.webhook ? { webhookUrls: ['http://127.0.0.1:9/hook'] } : {}),
  });
  const lane = app.gateway.sending.lane;
  /** Advance the fake clock in steps, letting the lane hand off what is due at each. */
  const run = async (ms: number, step = 250) => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(Math.min(step, ms - done));
      await lane.runDue();
    }
  };
  const status = async (id: string) => (await app.get(`/api/messages/${id}`)).json().data.status as string;
  /** POST /api/sms/send without moving the clock; resolves once the request waits in the lane. */
  const arrive = async (body: unknown) => {
    const res = app.app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: '10.0.0.7',
      headers: { ...app.auth, 'content-type': 'application/json' },
      payload: body as object,
    });
    for (let i = 0; i < 1000 && lane.pendingSyncSegments() === 0; i++) await new Promise((r) => setImmediate(r));
    return { res }; // wrapped: awaiting arrive() must not wait for the answer
  };
  return { ...app, lane, log, run, status, arrive };
}

/** No two hand-offs closer than 1 s; no rolling 60 s window over `limit` segments. */
function assertPace(t: Test, log: { at: number }[], segments: (i: number) => number, limit: number) {
  for (let i = 1; i < log.length; i++) {
    if (log[i]!.at - log[i - 1]!.at < 1000)
      t.fail(`hand-offs ${i - 1} and ${i} only ${log[i]!.at - log[i - 1]!.at} ms apart`);
  }
  for (let i = 0; i < log.length; i++) {
    let sum = 0;
    for (let j = i; j < log.length && log[j]!.at < log[i]!.at + 60_000; j++) sum += segments(j);
    if (sum > limit) t.fail(`${sum} segments in the 60 s from hand-off ${i}`);
  }
  t.pass(`${log.length} hand-offs: at least 1 s apart, at most ${limit} segments in any 60 s`);
}

t.test('the pause doubles from 30 s to 1, 2, 4 ... 10 minutes', async (t) => {
  t.same(
    [0, 1, 2, 3, 4, 5, 6, 7, 20].map(pauseMs),
    [0, 30_000, 60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000],
  );
});

t.test('queued messages leave one at a time, 1 s apart, in acceptance order', async (t) => {
  const c = await setup(t);
  const res = await c.queue({ to: ['+15550000001', '+15550000002', '+15550000003'], message: 'hello' });
  t.equal(res.statusCode, 202);
  const ids = res.json().data.map((r: { id: string }) => r.id);
  await c.lane.runDue();
  t.equal(c.log.length, 1, 'the first goes at once');
  await c.run(999, 333);
  t.equal(c.log.length, 1, 'not before 1 s');
  await c.run(1);
  t.equal(c.log.length, 2);
  await c.run(1000);
  t.same(
    c.log.map((h) => h.number),
    ['+15550000001', '+15550000002', '+15550000003'],
  );
  t.same(await Promise.all(ids.map(c.status)), ['sent', 'sent', 'sent']);
  t.equal(c.lane.hasTimer(), false, 'nothing waits: no timer');
});

t.test('100 recipients: 100 records, each handed off once, at the queue rate', async (t) => {
  const c = await setup(t);
  const to = Array.from({ length: 100 }, (_, i) => `+1555010${String(i).padStart(4, '0')}`);
  const res = await c.queue({ to, message: 'Reminder: the office is closed tomorrow.' });
  t.equal(res.statusCode, 202);
  const data = res.json().data as { id: string; to: string; status: string }[];
  t.equal(data.length, 100);
  t.same(
    data.map((r) => r.to),
    to,
    'in the order given',
  );
  t.equal(new Set(data.map((r) => r.id)).size, 100, 'each with its own id');
  t.ok(data.every((r) => r.status === 'queued'));
  await c.run(240_000, 500);
  t.equal(c.log.length, 100, 'all handed off after 4 minutes');
  t.same([...c.log.map((h) => h.number)].sort(), [...to].sort());
  t.equal(new Set(c.log.map((h) => h.number)).size, 100, 'none twice');
  assertPace(t, c.log, () => 1, 30);
  t.ok(c.log[99]!.at - c.log[0]!.at >= 180_000, 'at 30 per minute, 100 take over 3 minutes');
  const sent = (await c.get('/api/messages?status=sent&limit=100')).json();
  t.equal(sent.pagination.total, 100);
});

t.test('the shared budget: a synchronous send overtakes waiting queued messages, never past 60 segments', async (t) => {
  const c = await setup(t, { queueRate: 60 });
  const long = 'x'.repeat(153 * 10); // 10 segments
  await c.queue({ to: Array.from({ length: 6 }, (_, i) => `+1555020000${i}`), message: long });
  await c.run(4_500, 100);
  t.equal(c.log.length, 5, '50 segments queued in 4.5 s');
  const { res: sync } = await c.arrive({ to: TO, message: 'urgent' }); // waits for the slot at 5 s
  await c.run(1_000, 100);
  t.equal((await sync).statusCode, 200);
  t.equal(c.log[5]!.number, TO, 'the synchronous message took the next slot');
  await c.run(2_000, 100);
  t.equal(c.log.length, 6, 'the last queued one (10 segments) does not fit 51 + 10');
  const tooBig = await c.send({ to: TO, message: 'y'.repeat(153 * 10) });
  t.equal(tooBig.statusCode, 429, 'a synchronous send the window cannot take: 429');
  t.equal(tooBig.json().error.code, 'send_rate_limited');
  await c.run(60_000, 500);
  t.equal(c.log.length, 7, 'the queued one went when the window allowed');
  assertPace(t, c.log, (i) => (c.log[i]!.number === TO ? 1 : 10), 60);
});

t.test('a queued hand-off never makes a synchronous request a 429 for spacing', async (t) => {
  const c = await setup(t);
  await c.queue({ to: ['+15550300001', '+15550300002'], message: 'queued' });
  await c.lane.runDue();
  t.equal(c.log.length, 1);
  c.clock.advance(200);
  const { res } = await c.arrive({ to: TO, message: 'now' });
  await c.run(1000, 100);
  t.equal((await res).statusCode, 200, 'it waited for the slot instead');
  t.equal(c.log[1]!.number, TO);
  t.ok(c.log[1]!.at - c.log[0]!.at >= 1000);
});

t.test('quiet hours across midnight hold queued messages, not synchronous ones', async (t) => {
  const quietHours = parseQuietHours('22:00-07:00') as QuietHours;
  const c = await setup(t, { quietHours, start: Date.UTC(2026, 10, 22, 21, 59, 0) });
  await c.queue({ to: ['+15550400001'], message: 'before' });
  await c.lane.runDue();
  t.equal(c.log.length, 1, '21:59: sent');
  await c.run(60_000, 1000);
  await c.queue({ to: ['+15550400002'], message: 'in the night' });
  await c.run(8 * 3600_000, 60_000);
  t.equal(c.log.length, 1, 'held from 22:00 to 06:00');
  t.equal((await c.send({ to: TO, message: 'sync at night' })).statusCode, 200, 'a synchronous send is unaffected');
  t.equal(c.log.length, 2);
  await c.run(3600_000 - 2000, 60_000);
  t.equal(c.log.length, 2, 'still held at 06:59:59');
  await c.run(61_000, 1000);
  t.equal(c.log.length, 3, 'sent after 07:00');
  t.equal(c.log[2]!.text, 'in the night');
});

t.test('sendAt: not before its time; order by sendAt, then acceptance', async (t) => {
  const c = await setup(t);
  const base = c.clock.now();
  const at = (s: number) => new Date(base + s * 1000).toISOString();
  await c.queue({ to: '+15550500001', message: 'later', sendAt: at(120) });
  await c.queue({ to: '+15550500002', message: 'sooner', sendAt: at(60) });
  await c.queue({ to: '+15550500003', message: 'now' });
  await c.queue({ to: '+15550500004', message: 'sooner too', sendAt: at(60) });
  await c.run(59_000, 1000);
  t.same(
    c.log.map((h) => h.text),
    ['now'],
  );
  await c.run(5_000, 500);
  t.same(
    c.log.map((h) => h.text),
    ['now', 'sooner', 'sooner too'],
  );
  await c.run(60_000, 1000);
  t.same(
    c.log.map((h) => h.text),
    ['now', 'sooner', 'sooner too', 'later'],
  );
  t.ok(c.log[3]!.at - c.log[0]!.at >= 120_000, 'not before its sendAt');
});

t.test('cancel: before the hand-off it never leaves; after it, or twice: 409', async (t) => {
  const c = await setup(t);
  const [a, b] = (await c.queue({ to: ['+15550600001', '+15550600002'], message: 'm' })).json().data;
  await c.lane.runDue();
  t.equal(c.log.length, 1, 'a is handed off');
  const ok = await c.cancel(b.id);
  t.equal(ok.statusCode, 200);
  t.match(ok.json(), { success: true, data: { id: b.id, status: 'cancelled', reason: null } });
  await c.run(10_000, 500);
  t.equal(c.log.length, 1, 'the cancelled one never left');
  const again = await c.cancel(b.id);
  t.equal(again.statusCode, 409);
  t.match(again.json(), {
    success: false,
    smsSent: false,
    error: { code: 'not_cancellable', message: /already cancelled/ },
  });
  const late = await c.cancel(a.id);
  t.equal(late.statusCode, 409);
  t.match(late.json().error.message, /already sent/);
  t.equal((await c.cancel('msg_nosuchthing')).statusCode, 404);
  t.equal((await c.cancel('nosuchthing')).statusCode, 400);
  t.equal(
    (await c.get('/api/messages?status=cancelled')).json().pagination.total,
    1,
    'the status filter knows cancelled',
  );
  t.match((await c.get('/api/stats')).json().data.allTime, { accepted: 2, sent: 1, cancelled: 1, queued: 0 });
});

t.test('expiry while waiting: failed/expired with an sms.failed event, never handed off', async (t) => {
  const c = await setup(t, { webhook: true, queueRate: 1 });
  const base = c.clock.now();
  const soon = (s: number) => new Date(base + s * 1000).toISOString();
  const bad = await c.queue({ to: TO, message: 'x', sendAt: soon(120), expiresAt: soon(60) });
  t.equal(bad.statusCode, 400, 'expiresAt before sendAt is refused');
  t.match(bad.json().error.message, /expiresAt must be later than sendAt/);
  t.equal(
    (await c.queue({ to: TO, message: 'x', expiresAt: soon(-1) })).statusCode,
    400,
    'expiresAt in the past is refused',
  );
  // With a queue rate of 1 segment a minute, the second message waits a minute: past its expiry.
  await c.queue({ to: '+15550700001', message: 'first' });
  const res = await c.queue({ to: '+15550700002', message: 'only useful for 30 s', expiresAt: soon(30) });
  t.equal(res.statusCode, 202);
  t.match(res.json().data[0], { status: 'queued', sendAt: null, expiresAt: soon(30) });
  const id = res.json().data[0].id;
  await c.run(29_000, 1000);
  t.equal(await c.status(id), 'queued', 'still waiting at 29 s');
  await c.run(2_000, 500);
  t.match((await c.get(`/api/messages/${id}`)).json().data, { status: 'failed', reason: 'expired', billedSegments: 0 });
  await c.run(60_000, 1000);
  t.same(
    c.log.map((h) => h.text),
    ['first'],
    'never handed off',
  );
  const events = c.db.prepare(`SELECT type, record AS body FROM webhook_events`).all() as {
    type: string;
    body: string;
  }[];
  const failed = events.filter((e) => e.type === 'sms.failed').map((e) => JSON.parse(e.body).data);
  t.match(failed, [{ id, status: 'failed', reason: 'expired' }], 'one sms.failed event, for it');
  t.match((await c.get('/api/stats')).json().data.allTime, { accepted: 2, sent: 1, failed: 1, queued: 0 });
});

t.test(
  'a timed-out hand-off fails that message and pauses the queue: 30 s, 1, 2 min; recovery drains at the pace',
  async (t) => {
    let hung = true;
    const c = await setup(t, {
      answer: () => (hung ? { ok: false, reason: 'timeout', detail: 'no answer within 30000 ms' } : { ok: true }),
    });
    const ids = (
      await c.queue({
        to: Array.from({ length: 10 }, (_, i) => `+155508000${String(i).padStart(2, '0')}`),
        message: 'backlog',
      })
    )
      .json()
      .data.map((r: { id: string }) => r.id);
    await c.lane.runDue();
    t.equal(c.log.length, 1);
    t.match(
      (await c.get(`/api/messages/${ids[0]}`)).json().data,
      { status: 'failed', reason: 'timeout' },
      'the hung one fails, never resent',
    );
    const diag = async () => (await c.get('/api/diagnostics')).json().data.checks.queue;
    t.match(await diag(), { status: 'degraded', value: { waiting: 9, paused: true, consecutiveTimeouts: 1 } });
    const paused = (await diag()).value;
    t.equal(paused.nextAttemptAt, new Date(c.clock.now() + 30_000).toISOString(), 'the next try, 30 s on');
    t.equal(paused.oldestWaitingSince, new Date(c.clock.now()).toISOString(), 'waiting since acceptance');
    await c.run(29_000, 1000);
    t.equal(c.log.length, 1, 'paused for 30 s: the rest stay queued and untouched');
    t.same(await Promise.all(ids.slice(1).map(c.status)), Array(9).fill('queued'));
    await c.run(1_000, 1000);
    t.equal(c.log.length, 2, 'one try after 30 s');
    await c.run(59_000, 1000);
    t.equal(c.log.length, 2, 'then 1 minute');
    await c.run(1_000, 1000);
    t.equal(c.log.length, 3);
    await c.run(119_000, 1000);
    t.equal(c.log.length, 3, 'then 2 minutes');
    hung = false;
    await c.run(1_000, 1000);
    t.equal(c.log.length, 4, 'it answers again');
    t.match(await diag(), { status: 'ok', value: { paused: false, consecutiveTimeouts: 0 } });
    const recovered = c.log.length;
    await c.run(60_000, 250);
    t.equal(c.log.length, 10, 'the backlog drained');
    assertPace(t, c.log.slice(recovered - 1), () => 1, 30);
    t.same(await Promise.all(ids.map(c.status)), ['failed', 'failed', 'failed', ...Array(7).fill('sent')]);
  },
);

t.test('a restart rebuilds the pacing from the last minute of hand-offs', async (t) => {
  const c = await setup(t);
  await c.queue({ to: Array.from({ length: 30 }, (_, i) => `+155509000${String(i).padStart(2, '0')}`), message: 'x' });
  await c.run(30_000, 500);
  t.equal(c.log.length, 30, '30 queued segments in 30 s');
  c.gateway.sending.pacing.seed([]);
  t.equal(c.gateway.sending.pacing.usage().queuedSegmentsUsed, 0, 'forgotten, as after a restart');
  c.gateway.restore();
  await c.queue({ to: '+15550999999', message: 'after the restart' });
  await c.lane.runDue();
  t.equal(c.log.length, 30, 'the queue rate still holds after the rebuild');
  t.equal(c.gateway.sending.pacing.usage().queuedSegmentsUsed, 30);
});

t.test(
  'events and stats treat a queued message like a synchronous one: sms.sent, counted on the day it was accepted',
  async (t) => {
    const c = await setup(t, { webhook: true, start: Date.UTC(2026, 10, 22, 23, 0, 0) });
    const sendAt = new Date(Date.UTC(2026, 10, 23, 8, 0, 0)).toISOString(); // the next day (UTC)
    const id = (await c.queue({ to: '+15551110000', message: 'tomorrow morning', sendAt })).json().data[0].id;
    await c.run(9 * 3600_000 + 60_000, 60_000);
    t.equal(c.log.length, 1);
    const events = c.db.prepare(`SELECT type, record AS body FROM webhook_events`).all() as {
      type: string;
      body: string;
    }[];
    t.match(
      events.filter((e) => e.type === 'sms.sent').map((e) => JSON.parse(e.body).data),
      [{ id, status: 'sent', sendAt, expiresAt: null }],
      'one sms.sent event, with the queue fields',
    );
    t.match(
      c.gateway.sending.stats.day('2026-11-22'),
      { accepted: 1, sent: 1, queued: 0 },
      'counted on the day it was accepted',
    );
    t.match(c.gateway.sending.stats.day('2026-11-23'), { accepted: 0, sent: 0 });
  },
);

t.test('a synchronous send that gets no slot within 5 s is refused (503 sender_busy), never recorded', async (t) => {
  const clock = fakeClock();
  let release: ((r: HandoffResult) => void) | undefined;
  const sender: Sender = { send: () => new Promise<HandoffResult>((r) => (release = r)) };
  const app = await testApp(t, { clock, sender });
  await app.queue({ to: ['+15550500001'], message: 'hangs' });
  app.gateway.sending.lane.notify();
  for (let i = 0; i < 100 && !release; i++) await new Promise((r) => setImmediate(r));
  t.ok(release, 'the queued hand-off is in progress');
  const res = app.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '10.0.0.7',
    headers: { ...app.auth, 'content-type': 'application/json' },
    payload: { to: TO, message: 'now' },
  });
  for (let i = 0; i < 1000 && app.gateway.sending.lane.pendingSyncSegments() === 0; i++)
    await new Promise((r) => setImmediate(r));
  let answered = false;
  void res.then(() => (answered = true));
  await clock.tick(SYNC_SLOT_WAIT_MS - 1);
  t.equal(answered, false, 'still waiting for its slot at 4.999 s');
  await clock.tick(1);
  const r = await res;
  t.equal(r.statusCode, 503);
  t.equal(r.json().error.code, 'sender_busy');
  t.equal(
    app.gateway.sending.messages.list({ limit: 10, offset: 0 }).rows.length,
    1,
    'only the queued one is recorded',
  );
  release!({ ok: true });
});
