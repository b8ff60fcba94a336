// Expiry on time (docs/sending.md, expiry): a queued message
// becomes failed/expired, with its sms.failed event, within 1 s of its expiresAt and not
// before, whatever holds the queue: a pause after a hung hand-off (30 s up to 10 minutes),
// a hand-off still hanging, quiet hours, a later sendAt ahead of it. Nothing calls the lane
// by hand here: only the lane's own wake-ups (fake timers, moved by clock.tick) may expire.
import t, { type Test } from 'tap';
import type { HandoffResult } from '../../src/sms/handoff.js';
import type { Sender } from '../../src/sms/senders.js';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

const TIMEOUT: HandoffResult = { ok: false, reason: 'timeout', detail: 'no answer within 30000 ms' };

async function setup(
  t: Test,
  opts: { sender?: (clock: FakeClock) => Sender; quietHours?: QuietHours; start?: number; queueRate?: number } = {},
) {
  const clock = fakeClock(opts.start);
  const app = await testApp(t, {
    clock,
    ...(opts.sender ? { sender: opts.sender(clock) } : {}),
    ...(opts.quietHours ? { quietHours: opts.quietHours } : {}),
    ...(opts.queueRate ? { queueRate: opts.queueRate } : {}),
    webhookUrls: ['http://127.0.0.1:9/hook'],
  });
  const at = (s: number) => new Date(clock.now() + s * 1000).toISOString();
  const queueOne = async (body: Record<string, unknown>) => {
    const res = await app.queue({ message: 'x', ...body });
    t.equal(res.statusCode, 202, 'queued');
    return res.json().data[0].id as string;
  };
  const row = async (id: string) =>
    (await app.get(`/api/messages/${id}`)).json().data as { status: string; reason?: string };
  const failedEvents = (id: string) =>
    (app.db.prepare(`SELECT record AS body FROM webhook_events WHERE type = 'sms.failed'`).all() as { body: string }[])
      .map((e) => JSON.parse(e.body).data)
      .filter((d: { id: string }) => d.id === id);
  /** Moves fake time to `expiresAt - 1 ms` (still queued), then 1 s on (failed/expired, one event). */
  const expectExpiryAt = async (id: string, expiresAt: number) => {
    await clock.tick(expiresAt - 1 - clock.now());
    t.equal((await row(id)).status, 'queued', 'still queued 1 ms before its expiresAt');
    t.same(failedEvents(id), [], 'no event yet');
    await clock.tick(1000);
    t.match(await row(id), { status: 'failed', reason: 'expired' }, 'failed/expired within 1 s of its expiresAt');
    t.match(failedEvents(id), [{ id, status: 'failed', reason: 'expired' }], 'one sms.failed event');
  };
  return { ...app, at, queueOne, row, failedEvents, expectExpiryAt };
}

t.test('during the 30 s pause after a timed-out hand-off', async (t) => {
  const c = await setup(t, { sender: () => ({ send: async () => TIMEOUT }) });
  await c.queueOne({ to: '+15550600001' });
  await c.clock.tick(0);
  t.match(c.gateway.sending.lane.state(), { paused: true, consecutiveTimeouts: 1 }, 'the queue is paused for 30 s');
  const expiresAt = c.clock.now() + 10_000;
  const id = await c.queueOne({ to: '+15550600002', expiresAt: new Date(expiresAt).toISOString() });
  await c.expectExpiryAt(id, expiresAt);
  t.equal(c.gateway.sending.lane.state().paused, true, 'still paused: expiry did not wait for the pause to end');
});

t.test('during a long pause (4 minutes after four timeouts)', async (t) => {
  const c = await setup(t, { sender: () => ({ send: async () => TIMEOUT }) });
  for (let i = 0; i < 4; i++) await c.queueOne({ to: `+1555061000${i}` });
  await c.clock.tick(30_000 + 60_000 + 120_000);
  t.match(c.gateway.sending.lane.state(), { paused: true, consecutiveTimeouts: 4 }, 'paused for 4 minutes');
  const expiresAt = c.clock.now() + 150_000;
  const id = await c.queueOne({ to: '+15550610009', expiresAt: new Date(expiresAt).toISOString() });
  await c.expectExpiryAt(id, expiresAt);
});

t.test('while a hand-off hangs (the sender answers only after 30 s)', async (t) => {
  const c = await setup(t, {
    sender: (clock) => ({ send: () => new Promise<HandoffResult>((r) => clock.setTimer(() => r(TIMEOUT), 30_000)) }),
  });
  await c.queueOne({ to: '+15550620001' });
  const expiresAt = c.clock.now() + 5_000;
  const id = await c.queueOne({ to: '+15550620002', expiresAt: new Date(expiresAt).toISOString() });
  await c.expectExpiryAt(id, expiresAt);
});

t.test('during quiet hours', async (t) => {
  const quietHours = parseQuietHours('22:00-07:00') as QuietHours;
  const c = await setup(t, { quietHours, start: Date.UTC(2026, 10, 22, 23, 0, 0) });
  await c.queueOne({ to: '+15550630001' }); // waits for 07:00, ahead of the one that expires
  const expiresAt = c.clock.now() + 3_600_000 + 1234;
  const id = await c.queueOne({ to: '+15550630002', expiresAt: new Date(expiresAt).toISOString() });
  await c.expectExpiryAt(id, expiresAt);
  t.equal(c.handoffs.length, 0, 'nothing handed off in quiet hours');
});

t.test('scheduled (sendAt), then held by the queue rate behind another scheduled at the same time', async (t) => {
  const c = await setup(t, { queueRate: 1 }); // 1 segment a minute: the second waits a minute
  await c.queueOne({ to: '+15550640001', sendAt: c.at(7200) }); // first in the lane's order
  const expiresAt = c.clock.now() + 7_200_000 + 30_000;
  const id = await c.queueOne({ to: '+15550640002', sendAt: c.at(7200), expiresAt: new Date(expiresAt).toISOString() });
  await c.expectExpiryAt(id, expiresAt);
  t.equal(c.handoffs.length, 1, 'only the first was handed off, at its sendAt');
});

t.test(
  'the wall clock set past a waiting message expiresAt: the next pick expires it, never hands it off',
  async (t) => {
    // The expiry wake-up looks again within a minute of a wall clock set forward; the lane's
    // own pick must not hand off meanwhile what is already past its expiresAt.
    const c = await setup(t);
    await c.queueOne({ to: '+15550650001' });
    await c.clock.tick(0);
    t.equal(c.handoffs.length, 1, 'the first went at once');
    const id = await c.queueOne({ to: '+15550650002', expiresAt: c.at(3600) }); // paced: waits 2 s
    c.clock.set(c.clock.now() + 2 * 3_600_000); // the expiry wake-up is still ~60 s away
    await c.clock.tick(3000); // the lane's pacing wait ends first
    t.equal(c.handoffs.length, 1, 'the expired one was not handed off');
    t.match(await c.row(id), { status: 'failed', reason: 'expired' }, 'failed/expired at the pick');
    t.equal(c.failedEvents(id).length, 1, 'with its sms.failed event');
  },
);
