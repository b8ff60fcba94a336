// Webhook delivery against a real local receiver: signed, at least once, per target in
// order, retried with the same webhook-id, 410 switches a target off, nothing is lost
// across a restart, and the first retry comes within 30 s. Fake clock for the backoff.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import assert from 'node:assert';
import { systemClock } from '../../src/core/clock.js';
import { startReceiver } from '../fixtures/receiver.js';
import { GIVE_UP_AFTER_MS, MAX_RETRY_DELAY_MS, retryDelayMs } from '../../src/events/delivery.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const verify = (r: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(SECRET).verify(r.body, r.headers as Record<string, string>) as {
    id: string;
    type: string;
    data: Record<string, unknown>;
  };

t.test('backoff: first retry within 30 s, doubling, capped at 1 h, with jitter', async (t) => {
  t.ok(retryDelayMs(1, () => 1) <= 30_000, 'first retry at the latest');
  t.equal(
    retryDelayMs(1, () => 0.5),
    15_000,
  );
  t.equal(
    retryDelayMs(2, () => 0.5),
    30_000,
  );
  t.equal(
    retryDelayMs(3, () => 0.5),
    60_000,
  );
  t.equal(
    retryDelayMs(20, () => 0.5),
    MAX_RETRY_DELAY_MS,
  );
  t.equal(
    retryDelayMs(20, () => 1),
    MAX_RETRY_DELAY_MS * 1.2,
  );
  t.equal(
    retryDelayMs(1, () => 0),
    12_000,
  );
});

t.test('a sent SMS becomes a verified sms.sent event; a failed one sms.failed', async (t) => {
  const rx = await startReceiver(t);
  let fail = false;
  const { sender } = recordingSender(() => (fail ? { ok: false, reason: 'timeout', detail: 'x' } : { ok: true }));
  const { send, gateway } = await testApp(t, { webhookUrls: [rx.url], sender, clock: fakeClock(Date.now()) });
  const ok = (await send({ to: '+1 555 000 1111', message: 'Door opened' })).json();
  fail = true;
  const bad = (await send({ to: '12345', message: 'nope' })).json();
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2);
  const [a, b] = rx.received.map(verify);
  t.equal(a!.type, 'sms.sent');
  t.match(a!.data, {
    id: ok.messageId,
    to: '+1 555 000 1111',
    body: 'Door opened',
    status: 'sent',
    reason: null,
    segments: 1,
  });
  t.equal(b!.type, 'sms.failed');
  t.match(b!.data, { id: bad.messageId, status: 'failed', reason: 'timeout' });
  t.equal(rx.received[0]!.headers['webhook-id'], a!.id, 'webhook-id is the event id');
  t.match(rx.received[0]!.headers['user-agent'], /^sms-gateway\//);
  t.equal(rx.received[0]!.headers['content-type'], 'application/json');
  t.notMatch(JSON.stringify(rx.received.map((r) => r.headers)), /sk_local_/, 'the API key never leaves');
  t.equal(gateway.webhooks.outbox.heads().length, 0, 'delivered events leave the outbox');
  t.equal(gateway.webhooks.outbox.status()[0]!.delivered, 2);
});

t.test('retries after a 500 and a timeout keep the same webhook-id, then deliver once', async (t) => {
  const rx = await startReceiver(t, (n) => (n === 0 ? 500 : n === 1 ? 'hang' : 200));
  const { send, gateway, clock, get } = await testApp(t, {
    webhookUrls: [rx.url],
    webhookTimeoutMs: 1000,
    random: () => 0.5,
    clock: fakeClock(Date.now()),
  });
  await send({ to: '12345', message: 'x' });
  await gateway.webhooks.delivery.runDue(); // the first attempt (started by the send, or by this call)
  t.equal(rx.received.length, 1, 'one first attempt');
  let status = gateway.webhooks.outbox.status()[0]!;
  t.same([status.pending, status.failedAttempts, status.lastError], [1, 1, 'HTTP 500']);
  t.equal(await gateway.webhooks.delivery.runDue(), 0, 'not due before the backoff');
  clock.advance(15_000);
  t.equal(await gateway.webhooks.delivery.runDue(), 1, 'second attempt after 15 s');
  t.equal(rx.received.length, 2);
  status = gateway.webhooks.outbox.status()[0]!;
  t.equal(status.lastError, 'no answer within 1 s');
  const diag = (await get('/api/diagnostics')).json().data.checks.webhooks;
  t.equal(diag.status, 'degraded');
  t.match(diag.hint, /retried for 24 hours/);
  clock.advance(30_000);
  t.equal(await gateway.webhooks.delivery.runDue(), 1, 'third attempt after 30 s more');
  t.equal(rx.received.length, 3);
  const ids = new Set(rx.received.map((r) => r.headers['webhook-id']));
  t.equal(ids.size, 1, 'the same webhook-id on every try');
  for (const r of rx.received) t.equal(verify(r).type, 'sms.sent', 'each try is signed');
  t.equal(gateway.webhooks.outbox.status()[0]!.pending, 0);
  t.equal((await get('/api/diagnostics')).json().data.checks.webhooks.status, 'ok');
});

t.test('per target in order: a later event waits for the earlier one', async (t) => {
  let down = true;
  const rx = await startReceiver(t, () => (down ? 503 : 200));
  const other = await startReceiver(t);
  const { send, gateway, clock } = await testApp(t, {
    webhookUrls: [rx.url, other.url],
    random: () => 0.5,
    clock: fakeClock(Date.now()),
  });
  await send({ to: '12345', message: 'one' });
  await send({ to: '12345', message: 'two' });
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'only the head was tried');
  t.equal(verify(rx.received[0]!).data.body, 'one');
  t.same(
    other.received.map((r) => verify(r).data.body),
    ['one', 'two'],
    'a healthy target is not held up',
  );
  down = false;
  clock.advance(15_000);
  await gateway.webhooks.delivery.runDue();
  t.same(
    rx.received.slice(1).map((r) => verify(r).data.body),
    ['one', 'two'],
  );
});

t.test('410 Gone switches the target off and diagnostics says so', async (t) => {
  const rx = await startReceiver(t, () => 410);
  const { send, gateway, get } = await testApp(t, { webhookUrls: [rx.url] });
  await send({ to: '12345', message: 'a' });
  await gateway.webhooks.delivery.runDue();
  await send({ to: '12345', message: 'b' });
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'nothing more goes to a switched-off target');
  const status = gateway.webhooks.outbox.status()[0]!;
  t.equal(status.disabled, true);
  t.equal(status.pending, 0);
  const check = (await get('/api/diagnostics')).json().data.checks.webhooks;
  t.equal(check.status, 'degraded');
  t.match(check.hint, /410 Gone and was switched off.*sms-gateway webhook test/);
});

t.test('a restart in the middle of retries loses no event', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock(Date.now());
  let up = false;
  const rx = await startReceiver(t, () => (up ? 200 : 500));
  const first = await testApp(t, { home, clock, webhookUrls: [rx.url], random: () => 0.5 });
  for (const m of ['a', 'b', 'c']) await first.send({ to: '12345', message: m });
  await first.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  await first.app.close();
  await first.gateway.stopBackground();
  first.db.close();

  up = true;
  const again = await testApp(t, { home, clock, webhookUrls: [rx.url], random: () => 0.5 });
  clock.advance(15_000);
  await again.gateway.webhooks.delivery.runDue();
  const delivered = rx.received.filter((_, i) => i > 0).map((r) => verify(r).data.body);
  t.same(delivered, ['a', 'b', 'c'], 'every event, in order, after the restart');
  t.equal(new Set(rx.received.map((r) => r.headers['webhook-id'])).size, 3, 'the retried event kept its id');
});

t.test('after 24 hours an event is given up and counted as expired; no attempt after the deadline', async (t) => {
  const attempts: number[] = [];
  const { send, gateway, clock } = await testApp(t, { webhookUrls: ['http://127.0.0.1:9/never'], random: () => 0.5 });
  const rx = await startReceiver(t, () => 500);
  gateway.webhooks.outbox.syncTargets([rx.url]);
  const started = clock.now();
  await send({ to: '12345', message: 'x' });
  for (let i = 0; i < 200 && gateway.webhooks.outbox.status().some((s) => s.pending > 0); i++) {
    const before = rx.received.length;
    await gateway.webhooks.delivery.runDue();
    for (let k = before; k < rx.received.length; k++) attempts.push(clock.now());
    clock.advance(MAX_RETRY_DELAY_MS);
  }
  const s = gateway.webhooks.outbox.status().find((x) => x.url === rx.url)!;
  t.equal(s.pending, 0);
  t.equal(s.expired, 1);
  t.ok(attempts.length >= 24, `tried ${attempts.length} times`);
  t.same(
    attempts.filter((at) => at >= started + GIVE_UP_AFTER_MS),
    [],
    'no attempt at or after 24 hours',
  );
});

t.test('an event older than 24 hours is never attempted, also after the phone was off for days', async (t) => {
  // Off is a stopped gateway and a start days later; within one process, a wall clock that
  // moves alone is a clock correction, which moves the events' times with it (clock-jump.test.ts).
  const home = tempDir(t);
  const clock = fakeClock();
  const rx = await startReceiver(t, () => 200);
  const first = await testApp(t, { home, clock, webhookUrls: [rx.url] });
  await first.send({ to: '12345', message: 'x' }); // its delivery is pending (not run yet)
  await first.app.close();
  await first.gateway.stopBackground();
  first.db.close();
  clock.advance(3 * 24 * 3600_000); // off for three days
  const { gateway } = await testApp(t, { home, clock, webhookUrls: [rx.url] });
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 0, 'not sent');
  t.match(gateway.webhooks.outbox.status()[0], { pending: 0, expired: 1 });
});

t.test('a hanging target never delays deliveries to another target', async (t) => {
  const slow = await startReceiver(t, () => 'hang');
  const fast = await startReceiver(t, () => 200);
  const { send, gateway } = await testApp(t, { webhookUrls: [slow.url, fast.url], webhookTimeoutMs: 6000 });
  await send({ to: '12345', message: 'one' });
  await send({ to: '12345', message: 'two' });
  await send({ to: '12345', message: 'three' });
  let roundOver = false;
  const round = gateway.webhooks.delivery.runDue().finally(() => {
    roundOver = true;
  });
  for (let i = 0; i < 250 && fast.received.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  t.equal(fast.received.length, 3, 'all three reached the fast target');
  // Ordering, not a stopwatch (a loaded machine stretches any duration): the round ends only
  // when the hanging attempt times out (6 s), and it has not.
  t.equal(slow.received.length, 1, 'the hanging target got its first attempt');
  t.notOk(roundOver, 'before the hanging target timed out even once');
  await round;
});

t.test(
  'a frozen target (accepts, never answers): each event of a burst reaches a healthy target within 1 s of its commit',
  async (t) => {
    // Real time: delivery is network I/O, and the events come from the lane's real timers
    // (5 recipients handed off 1 s apart), so each commits while the frozen target's attempt
    // is still in flight (8 s timeout) and no one calls runDue.
    const realTime: FakeClock = {
      ...systemClock,
      advance: () => assert.fail('real time: the test does not move it'),
      set: () => assert.fail('real time: the test does not set it'),
      tick: async () => undefined, // the teardown's tick: real time passes by itself
      runAll: async () => undefined,
      pendingTimers: () => 0,
      firedTimers: () => 0,
    };
    const frozen = await startReceiver(t, () => 'hang');
    const arrivals: { id: string; at: number }[] = [];
    const healthy = await startReceiver(t, (_n, r) => {
      arrivals.push({ id: JSON.parse(r.body).id, at: Date.now() });
      return 200;
    });
    const { queue, db } = await testApp(t, {
      webhookUrls: [frozen.url, healthy.url],
      webhookTimeoutMs: 8000,
      clock: realTime,
    });
    const ids = (await queue({ to: Array.from({ length: 5 }, (_, i) => `+1555071000${i}`), message: 'burst' }))
      .json()
      .data.map((r: { id: string }) => r.id);
    t.equal(ids.length, 5);
    for (let i = 0; i < 400 && arrivals.length < 5; i++) await new Promise((r) => setTimeout(r, 20));
    const committed = new Map(
      (db.prepare(`SELECT id, created_at AS at FROM webhook_events`).all() as { id: string; at: number }[]).map((e) => [
        e.id,
        e.at,
      ]),
    );
    t.equal(committed.size, 5, 'five events (sms.sent)');
    t.equal(arrivals.length, 5, 'all five reached the healthy target, each once');
    t.same(
      arrivals.map((a) => a.id),
      [...committed.keys()],
      'in order',
    );
    const waits = arrivals.map((a) => a.at - committed.get(a.id)!);
    t.ok(
      waits.every((w) => w <= 1000),
      `each within 1 s of its commit (waited ${waits.join(', ')} ms)`,
    );
    t.equal(frozen.received.length, 1, 'the frozen target holds one attempt, no more');
    frozen.server.closeAllConnections(); // its attempt ends now, not after the 8 s timeout
  },
);

t.test('logs and diagnostics show a target as scheme, host and port only', async (t) => {
  const lines: string[] = [];
  const pino = (await import('pino')).default;
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
  const rx = await startReceiver(t, () => 500);
  const secretUrl = `${rx.url}/abc-SECRET-token?key=SECRET2`;
  const { send, gateway, get } = await testApp(t, { webhookUrls: [secretUrl], logger });
  await send({ to: '12345', message: 'x' });
  await gateway.webhooks.delivery.runDue();
  const diag = JSON.stringify((await get('/api/diagnostics')).json().data.checks.webhooks);
  t.notMatch(diag, /SECRET/, 'not in diagnostics');
  t.match(diag, new RegExp(new URL(rx.url).host.replace(/[.]/g, '\\.')));
  t.ok(
    lines.some((l) => l.includes('webhook delivery failed')),
    'the failure was logged',
  );
  t.notMatch(lines.join('\n'), /SECRET/, 'not in the log');
});

t.test('no targets: nothing stored, no timer; a clock set back does not stall delivery', async (t) => {
  const none = await testApp(t);
  await none.send({ to: '12345', message: 'x' });
  t.equal(none.gateway.webhooks.outbox.heads().length, 0);
  t.equal(none.gateway.webhooks.delivery.hasTimer(), false, 'idle: no timer');

  const rx = await startReceiver(t, (n) => (n === 0 ? 500 : 200));
  const { send, gateway, clock } = await testApp(t, { webhookUrls: [rx.url], random: () => 0.5 });
  await send({ to: '12345', message: 'x' });
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  clock.set(clock.now() - 7 * 24 * 3600_000); // the phone's clock jumps a week back
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'the retry keeps its 15 s: the jump moved it too');
  clock.advance(15_000);
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2, 'retried 15 s after the failure, not a week later');
});
