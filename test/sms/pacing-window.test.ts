// The rolling window and spacing of the pacing, edge by edge (at most 60 segments in any
// rolling 60 s, at least 1 s apart), docs/sending.md "limits", now counted at
// hand-off time (second contract). Time only moves
// through fakeClock().advance(); nothing sleeps.
import t, { type Test } from 'tap';
import { BUDGET_SEGMENTS, BUDGET_WINDOW_MS, SPACING_MS, createPacing } from '../../src/sms/pacing.js';
import type { Clock } from '../../src/core/clock.js';
import { fakeClock } from '../helpers/fake-clock.js';

/**
 * The 0.1 budget's view of the pacing, for the synchronous path: these window and spacing
 * cases were written for the send budget and hold unchanged for the pacing at hand-off.
 */
function createSendBudget(clock: Clock) {
  const p = createPacing(clock, 60);
  return {
    check(segments: number) {
      const spacing = p.spacingWaitMs();
      const budget = p.budgetWaitMs(segments);
      if (spacing <= 0 && budget <= 0) return { ok: true as const };
      return budget > spacing
        ? { ok: false as const, retryAfterMs: budget, because: 'budget' as const }
        : { ok: false as const, retryAfterMs: spacing, because: 'spacing' as const };
    },
    record: (segments: number) => p.record(segments, false),
    seed: (accepted: { ageMs: number; segments: number }[]) => p.seed(accepted.map((a) => ({ ...a, queued: false }))),
    usage() {
      const u = p.usage();
      return { segmentsUsed: u.segmentsUsed, waitMs: u.waitMs };
    },
  };
}

t.test('the constants are the contract values', async (t) => {
  t.equal(BUDGET_SEGMENTS, 60);
  t.equal(BUDGET_WINDOW_MS, 60_000);
  t.equal(SPACING_MS, 1_000);
});

t.test('spacing: first send ok, a second within 1 s waits exactly the rest of the second', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  t.same(budget.check(1), { ok: true }, 'first send into an empty budget');
  budget.record(1);
  t.same(budget.check(1), { ok: false, retryAfterMs: 1000, because: 'spacing' }, 'same instant: a full second');
  clock.advance(300);
  t.same(budget.check(1), { ok: false, retryAfterMs: 700, because: 'spacing' }, 'after 300 ms: 700 ms');
  clock.advance(699);
  t.same(budget.check(1), { ok: false, retryAfterMs: 1, because: 'spacing' }, 'after 999 ms: 1 ms');
  clock.advance(1);
  t.same(budget.check(1), { ok: true }, 'after exactly 1000 ms');
  budget.record(1);
  clock.advance(1000);
  t.same(budget.check(1), { ok: true }, 'spacing counts from the latest send');
});

t.test('check() consumes nothing: ok or refused, the same answer twice', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  t.same(budget.check(60), { ok: true });
  t.same(budget.check(60), { ok: true }, 'an ok check is not a send');
  t.same(budget.usage(), { segmentsUsed: 0, waitMs: 0 });
  budget.record(30);
  clock.advance(400);
  const first = budget.check(31);
  const second = budget.check(31);
  t.same(first, { ok: false, retryAfterMs: 59_600, because: 'budget' });
  t.same(second, first, 'a refused check changed nothing');
  t.same(
    budget.check(1),
    { ok: false, retryAfterMs: 600, because: 'spacing' },
    'spacing still from the one recorded send',
  );
  t.equal(budget.usage().segmentsUsed, 30, 'only the recorded 30 count');
});

/** Records n one-segment sends one second apart; returns the monotonic time of each. */
function steadySends(
  t: Test,
  clock: ReturnType<typeof fakeClock>,
  budget: ReturnType<typeof createSendBudget>,
  n: number,
) {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i > 0) clock.advance(1000);
    t.same(budget.check(1), { ok: true }, `steady send ${i + 1} fits`);
    budget.record(1);
    times.push(clock.monotonicMs());
  }
  return times;
}

t.test('budget: 60 one-segment sends 1 s apart; the window is the last 60 s, half-open', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  const times = steadySends(t, clock, budget, 60);
  t.equal(times[59]! - times[0]!, 59_000);
  t.same(budget.usage(), { segmentsUsed: 60, waitMs: 1000 });

  // 999 ms after the 60th: the oldest leaves in 1 ms, and so does the spacing.
  clock.advance(999);
  t.same(budget.check(1), { ok: false, retryAfterMs: 1, because: 'spacing' });
  t.same(
    budget.check(2),
    { ok: false, retryAfterMs: 1001, because: 'budget' },
    'two segments need the two oldest gone',
  );

  // At the next second the oldest (sent exactly 60 s ago) no longer counts.
  clock.advance(1);
  t.equal(clock.monotonicMs() - times[0]!, 60_000);
  t.same(budget.usage(), { segmentsUsed: 59, waitMs: 0 });
  t.same(budget.check(1), { ok: true }, 'a steady 1 per second never hits the budget');
  const refused = budget.check(2);
  t.same(refused, { ok: false, retryAfterMs: 1000, because: 'budget' }, 'waits until the second oldest leaves');
  t.equal(times[1]! + BUDGET_WINDOW_MS - clock.monotonicMs(), 1000, 'which is exactly when the second oldest ages out');
  clock.advance(999);
  t.same(budget.check(2), { ok: false, retryAfterMs: 1, because: 'budget' });
  clock.advance(1);
  t.same(budget.check(2), { ok: true });
});

t.test('budget: 60 segments in the window, one more fits only when the oldest leaves', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  const t0 = clock.monotonicMs();
  budget.record(30); // t0
  clock.advance(1000);
  budget.record(30); // t0 + 1000
  clock.advance(4000); // t0 + 5000
  t.same(budget.usage(), { segmentsUsed: 60, waitMs: 55_000 });
  t.same(budget.check(0), { ok: true }, 'nothing more fits in a full budget without waiting');
  t.same(budget.check(1), { ok: false, retryAfterMs: 55_000, because: 'budget' });
  t.equal(t0 + BUDGET_WINDOW_MS - clock.monotonicMs(), 55_000);
  t.same(budget.check(30), { ok: false, retryAfterMs: 55_000, because: 'budget' }, '30 more: the oldest 30 are enough');
  t.same(budget.check(31), { ok: false, retryAfterMs: 56_000, because: 'budget' }, '31 more: both must leave');
  clock.advance(54_999);
  t.same(budget.check(1), { ok: false, retryAfterMs: 1, because: 'budget' });
  clock.advance(1);
  t.same(budget.check(1), { ok: true }, 'the oldest 30 just left');
  t.same(budget.check(30), { ok: true });
  t.same(budget.check(31), { ok: false, retryAfterMs: 1000, because: 'budget' });
});

t.test('budget: 59 used + 1 fits at once (exactly 60 is allowed)', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(59);
  clock.advance(1000);
  t.same(budget.check(1), { ok: true });
  t.same(budget.check(2), { ok: false, retryAfterMs: 59_000, because: 'budget' });
});

t.test('budget: a 10-segment message with 55 used waits until enough segments age out', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  // Timeline (monotonic, relative to t0): 3 segments at 0, 2 at 10 s, 50 at 20 s; now 30 s.
  budget.record(3);
  clock.advance(10_000);
  budget.record(2);
  clock.advance(10_000);
  budget.record(50);
  clock.advance(10_000);
  t.equal(budget.usage().segmentsUsed, 55);
  // 55 + 10 = 65: the 3 at 0 s leaving is not enough (62), the 2 at 10 s must leave too (60),
  // which happens at 10 s + 60 s = 70 s, 40 s from now.
  t.same(budget.check(10), { ok: false, retryAfterMs: 40_000, because: 'budget' });
  t.same(budget.check(8), { ok: false, retryAfterMs: 30_000, because: 'budget' }, '8 needs only the 3 at 0 s gone');
  t.same(budget.check(5), { ok: true }, '55 + 5 = 60 fits now');
  clock.advance(30_000); // 60 s: the 3 at 0 s just left
  t.same(budget.usage(), { segmentsUsed: 52, waitMs: 0 });
  t.same(budget.check(10), { ok: false, retryAfterMs: 10_000, because: 'budget' });
  t.same(budget.check(8), { ok: true });
  clock.advance(9_999);
  t.same(budget.check(10), { ok: false, retryAfterMs: 1, because: 'budget' });
  clock.advance(1);
  t.same(budget.check(10), { ok: true });
  t.equal(budget.usage().segmentsUsed, 50);
  budget.record(10);
  t.same(budget.usage(), { segmentsUsed: 60, waitMs: 10_000 }, 'full until the 50 at 20 s leave, at 80 s');
});

t.test('budget: the longer wait of budget and spacing wins', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(50);
  clock.advance(59_500);
  budget.record(10);
  clock.advance(200);
  // Budget: the 50 leave in 300 ms; spacing: 800 ms more.
  t.same(budget.check(1), { ok: false, retryAfterMs: 800, because: 'spacing' });
  clock.advance(800);
  t.same(budget.check(50), { ok: true }, 'the 50 left 500 ms ago; 10 + 50 = 60');
  t.same(budget.check(51), { ok: false, retryAfterMs: 59_000, because: 'budget' });
});

t.test('a 60-segment message into an empty budget fits, and then fills it', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  t.same(budget.check(60), { ok: true });
  budget.record(60);
  clock.advance(1000);
  t.same(budget.check(1), { ok: false, retryAfterMs: 59_000, because: 'budget' });
  clock.advance(59_000);
  t.same(budget.check(60), { ok: true });
});

t.test('seed rebuilds from history: old entries ignored, young ones count, spacing from the youngest', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(40); // replaced by the seed
  budget.seed([
    { ageMs: 400, segments: 5 }, // youngest, given first: order must not matter
    { ageMs: 70_000, segments: 30 }, // older than the window
    { ageMs: 60_000, segments: 30 }, // exactly 60 s old: out of the window
    { ageMs: 59_000, segments: 20 },
    { ageMs: 30_000, segments: 10 },
  ]);
  t.same(budget.usage(), { segmentsUsed: 35, waitMs: 600 }, '20 + 10 + 5; spacing from the send 400 ms ago');
  t.same(budget.check(1), { ok: false, retryAfterMs: 600, because: 'spacing' });
  // 35 + 30 = 65: the 20 (59 s old) leaves in 1 s, longer than the spacing.
  t.same(budget.check(30), { ok: false, retryAfterMs: 1000, because: 'budget' });
  // 35 + 46 = 81: the 20 going leaves 61, so the 10 (30 s old, leaves in 30 s) must go too.
  t.same(budget.check(46), { ok: false, retryAfterMs: 30_000, because: 'budget' });
  clock.advance(600);
  t.same(budget.check(25), { ok: true });
  clock.advance(400); // the 20 leaves
  t.same(budget.usage(), { segmentsUsed: 15, waitMs: 0 });
});

t.test('seed with nothing in the window leaves an empty budget; a future-dated entry counts as now', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(60);
  budget.seed([{ ageMs: 60_001, segments: 60 }]);
  t.same(budget.usage(), { segmentsUsed: 0, waitMs: 0 }, 'earlier state is replaced, old history ignored');
  t.same(budget.check(60), { ok: true });
  budget.seed([]);
  t.same(budget.usage(), { segmentsUsed: 0, waitMs: 0 });
  // A wall clock set back makes a stored send look younger than 0 ms: it counts from now.
  budget.seed([{ ageMs: -5000, segments: 7 }]);
  t.same(budget.usage(), { segmentsUsed: 7, waitMs: 1000 });
  clock.advance(59_999);
  t.equal(budget.usage().segmentsUsed, 7);
  clock.advance(1);
  t.equal(budget.usage().segmentsUsed, 0, 'it ages out 60 s from the seeding, not 65 s');
});

t.test('seed then record: new sends count on top of the seeded ones', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.seed([{ ageMs: 2000, segments: 50 }]);
  t.same(budget.check(10), { ok: true });
  budget.record(10);
  clock.advance(1000);
  t.same(budget.usage(), { segmentsUsed: 60, waitMs: 57_000 }, 'full until the seeded 50 leave (60 s - 2 s - 1 s)');
});

t.test('the budget runs on the monotonic clock: a wall-clock jump changes nothing', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(60);
  clock.set(clock.now() + 3_600_000);
  t.same(budget.check(1), { ok: false, retryAfterMs: 60_000, because: 'budget' });
  clock.set(clock.now() - 7_200_000);
  t.same(budget.usage(), { segmentsUsed: 60, waitMs: 60_000 });
});

t.test('usage() works as a bare function too', async (t) => {
  const clock = fakeClock();
  const budget = createSendBudget(clock);
  budget.record(3);
  const { usage } = budget;
  t.same(usage(), { segmentsUsed: 3, waitMs: 1000 });
});
