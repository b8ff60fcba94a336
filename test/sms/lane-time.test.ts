// The hand-off lane and the phone's time (issue 34, cases 2 and 6), through the real
// routes on fake wall and monotonic clocks: a sendAt 30 days ahead (the contract's limit)
// waits in bounded steps, never one timer past 2^31-1 ms (the fake clock throws as Node
// would spin); a wall clock that jumps forward releases what became due within one step
// (30 s: issue 44, item 7), not at the old distance; quiet hours end on the phone's local
// clock across DST.
import t, { type Test } from 'tap';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

/** The longest the lane sleeps at once (core/loop.ts WALL_CLOCK_STEP_MS): a jump is seen within it. */
const STEP_MS = 30_000;

async function setup(t: Test, opts: { start?: number; quietHours?: string; timeZone?: string } = {}) {
  const clock = fakeClock(opts.start);
  const quietHours = opts.quietHours ? (parseQuietHours(opts.quietHours) as QuietHours) : undefined;
  const app = await testApp(t, {
    clock,
    ...(quietHours ? { quietHours } : {}),
    ...(opts.timeZone ? { timeZone: opts.timeZone } : {}),
  });
  const queueOne = async (body: Record<string, unknown>) => {
    const res = await app.queue({ message: 'x', ...body });
    t.equal(res.statusCode, 202, 'queued');
    return res.json().data[0].id as string;
  };
  const status = async (id: string) => (await app.get(`/api/messages/${id}`)).json().data.status as string;
  return { ...app, queueOne, status };
}

t.test('a sendAt 30 days ahead: no timer past 2^31-1 ms, handed off at its time, 2 wake-ups a minute', async (t) => {
  const c = await setup(t);
  const sendAt = c.clock.now() + 30 * 86_400_000;
  const id = await c.queueOne({ to: '+15550700001', sendAt: new Date(sendAt).toISOString() });
  const firedBefore = c.clock.firedTimers();
  while (c.clock.now() < sendAt - 1) await c.clock.tick(Math.min(86_400_000, sendAt - 1 - c.clock.now()));
  t.equal(await c.status(id), 'queued', 'still queued 1 ms before its sendAt');
  t.equal(c.handoffs.length, 0);
  await c.clock.tick(1);
  t.equal(c.handoffs.length, 1, 'handed off at its sendAt');
  t.equal(await c.status(id), 'sent');
  const wakeUps = c.clock.firedTimers() - firedBefore;
  t.ok(wakeUps <= (30 * 86_400_000) / STEP_MS + 10, `${wakeUps} wake-ups in 30 days`);
  t.equal(c.gateway.sending.lane.hasTimer(), false, 'nothing waits: no timer');
});

t.test('the lane never sleeps longer than one step while a far sendAt waits', async (t) => {
  const c = await setup(t);
  await c.queueOne({ to: '+15550700002', sendAt: new Date(c.clock.now() + 20 * 86_400_000).toISOString() });
  await c.clock.tick(0);
  t.equal(c.gateway.sending.lane.hasTimer(), true, 'a wake-up is set');
  const before = c.clock.firedTimers();
  await c.clock.tick(3_600_000);
  const wakeUps = c.clock.firedTimers() - before;
  t.ok(wakeUps >= 1 && wakeUps <= 3_600_000 / STEP_MS, `woke ${wakeUps} times in an hour (at most every 30 s)`);
  t.equal(c.gateway.sending.lane.hasTimer(), true, 'and waits on');
});

t.test('a wall clock 2 h ahead releases a message due in 1 h within 30 s, nothing read in between', async (t) => {
  const c = await setup(t);
  const id = await c.queueOne({ to: '+15550700003', sendAt: new Date(c.clock.now() + 3_600_000).toISOString() });
  await c.clock.tick(1000);
  t.equal(c.handoffs.length, 0, 'waits for its sendAt');
  c.clock.set(c.clock.now() + 2 * 3_600_000); // network time corrects the phone's clock
  await c.clock.tick(STEP_MS);
  t.equal(c.handoffs.length, 1, 'handed off within 30 s of the jump (it is past its sendAt now)');
  t.equal(await c.status(id), 'sent');
});

t.test(
  'a wall clock jump seen by any reading of the time (a diagnostics request) wakes the lane at once',
  async (t) => {
    const c = await setup(t);
    await c.queueOne({ to: '+15550700004', sendAt: new Date(c.clock.now() + 3_600_000).toISOString() });
    await c.clock.tick(1000);
    c.clock.set(c.clock.now() + 2 * 3_600_000);
    t.equal((await c.get('/api/diagnostics')).statusCode, 200); // reads the time: sees the jump
    await c.clock.tick(0);
    t.equal(c.handoffs.length, 1, 'the message now past its sendAt went at once');
    t.equal(c.handoffs[0]?.number, '+15550700004');
  },
);

t.test(
  'quiet hours ending at 02:01 on the night Europe/Berlin skips 02:00-03:00 end at 03:00 local, not a minute later',
  async (t) => {
    const c = await setup(t, {
      start: Date.parse('2026-03-28T21:37:00Z'),
      quietHours: '22:00-02:01',
      timeZone: 'Europe/Berlin',
    });
    await c.queueOne({ to: '+15550700006' });
    await c.clock.tick(Date.parse('2026-03-29T01:00:00Z') - 1 - c.clock.now());
    t.equal(c.handoffs.length, 0, 'still quiet at 01:59:59.999 local');
    await c.clock.tick(1000);
    t.equal(c.handoffs.length, 1, 'handed off within 1 s of 03:00 local, the first instant after the gap');
  },
);

t.test(
  'quiet hours ending at 02:59, a time that does not exist that night: released at 03:00 local, not 59 minutes late',
  async (t) => {
    const c = await setup(t, {
      start: Date.parse('2026-03-28T21:37:00Z'),
      quietHours: '22:00-02:59',
      timeZone: 'Europe/Berlin',
    });
    await c.queueOne({ to: '+15550700007' });
    await c.clock.tick(Date.parse('2026-03-29T01:00:00Z') - 1 - c.clock.now());
    t.equal(c.handoffs.length, 0, 'still quiet');
    await c.clock.tick(1000);
    t.equal(c.handoffs.length, 1, 'handed off at 03:00 local');
  },
);

t.test('quiet hours ending in the hour autumn repeats: released at the first 02:30, not held again', async (t) => {
  const c = await setup(t, {
    start: Date.parse('2026-10-24T21:13:00Z'),
    quietHours: '22:00-02:30',
    timeZone: 'Europe/Berlin',
  });
  await c.queueOne({ to: '+15550700008' });
  await c.clock.tick(Date.parse('2026-10-25T00:30:00Z') - 1 - c.clock.now());
  t.equal(c.handoffs.length, 0, 'still quiet at 02:29:59.999 CEST');
  await c.clock.tick(1000);
  t.equal(c.handoffs.length, 1, 'handed off at the first 02:30');
  await c.clock.tick(Date.parse('2026-10-25T01:10:00Z') - c.clock.now()); // 02:10 again, CET
  await c.queueOne({ to: '+15550700009' });
  await c.clock.tick(2000);
  t.equal(c.handoffs.length, 2, 'the second pass of 02:10 is not quiet');
});
