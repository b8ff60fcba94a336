// Pacing at hand-off time (docs/sending.md: queued sending): spacing, the
// shared rolling 60-segment budget, the queue rate for queued hand-offs, the rebuild at
// start. Time only moves through fakeClock().advance().
import t from 'tap';
import { BUDGET_SEGMENTS, BUDGET_WINDOW_MS, SPACING_MS, createPacing } from '../../src/sms/pacing.js';
import { fakeClock } from '../helpers/fake-clock.js';

t.test('the contract values', async (t) => {
  t.same([BUDGET_SEGMENTS, BUDGET_WINDOW_MS, SPACING_MS], [60, 60_000, 1_000]);
});

t.test('spacing: 1 s between hand-offs, whichever path', async (t) => {
  const clock = fakeClock();
  const p = createPacing(clock, 30);
  t.equal(p.syncWaitMs(1), 0);
  t.equal(p.queuedWaitMs(1), 0);
  p.record(1, true);
  t.equal(p.syncWaitMs(1), 1000, 'a queued hand-off spaces the next synchronous one');
  clock.advance(400);
  t.equal(p.queuedWaitMs(1), 600);
  clock.advance(600);
  t.equal(p.syncWaitMs(1), 0);
  p.record(1, false);
  t.equal(p.queuedWaitMs(1), 1000, 'and a synchronous one the next queued one');
});

t.test('the 60-segment window is shared by both paths', async (t) => {
  const clock = fakeClock();
  const p = createPacing(clock, 60);
  p.record(30, true); // t=0
  clock.advance(10_000);
  p.record(25, false); // t=10 s
  clock.advance(1000);
  t.equal(p.budgetWaitMs(5), 0, '55 + 5 = 60 fits');
  t.equal(p.budgetWaitMs(6), 49_000, '61 does not: wait for the t=0 hand-off to age out');
  t.equal(p.queuedWaitMs(6), 49_000);
  t.equal(p.budgetWaitMs(36), 59_000, 'needs both to age out');
  clock.advance(49_000);
  t.equal(p.budgetWaitMs(35), 0, 'exactly 60 s after the first, its segments are free');
  t.same(p.usage(), { segmentsUsed: 25, queuedSegmentsUsed: 0, waitMs: 0 });
});

t.test('queued hand-offs also stay within the queue rate; synchronous ones do not count it', async (t) => {
  const clock = fakeClock();
  const p = createPacing(clock, 30);
  for (let i = 0; i < 30; i++) {
    t.equal(p.queuedWaitMs(1), 0, `queued ${i + 1} of 30`);
    p.record(1, true);
    clock.advance(1000);
  }
  // 30 queued segments in the last 30 s: the 31st waits until the first is 60 s old.
  t.equal(p.queuedWaitMs(1), 30_000);
  t.equal(p.syncWaitMs(1), 0, 'a synchronous message still fits the shared budget (30 of 60)');
  p.record(20, false);
  clock.advance(1000);
  t.equal(p.syncWaitMs(10), 0, '50 + 10 = 60');
  t.equal(p.syncWaitMs(11), 29_000, 'the shared window is full');
  t.equal(p.queuedWaitMs(1), 29_000);
  t.same(p.usage(), { segmentsUsed: 50, queuedSegmentsUsed: 30, waitMs: 0 });
});

t.test('a queued message longer than the queue rate goes alone', async (t) => {
  const clock = fakeClock();
  const p = createPacing(clock, 10);
  t.equal(p.queuedWaitMs(15), 0, 'nothing queued in the window: it may go');
  p.record(3, true);
  clock.advance(5000);
  t.equal(p.queuedWaitMs(15), 55_000, 'waits until the window holds no queued segment');
  p.record(1, false);
  clock.advance(55_000);
  t.equal(p.queuedWaitMs(15), 0, 'synchronous segments do not count against the queue rate');
});

t.test('seed rebuilds the windows from recent hand-offs; older ones are dropped', async (t) => {
  const clock = fakeClock();
  const p = createPacing(clock, 30);
  p.seed([
    { ageMs: 70_000, segments: 50, queued: true },
    { ageMs: 50_000, segments: 20, queued: true },
    { ageMs: 500, segments: 30, queued: false },
  ]);
  t.same(p.usage(), { segmentsUsed: 50, queuedSegmentsUsed: 20, waitMs: 500 });
  t.equal(p.queuedWaitMs(11), 10_000, '20 + 11 > 30 until the 50 s old one ages out');
  t.equal(p.syncWaitMs(11), 10_000, '50 + 11 > 60 likewise');
  t.equal(p.syncWaitMs(10), 500, 'spacing from the newest');
});
