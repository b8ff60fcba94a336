// The send budget (at most 60 segments accepted in any rolling 60 s) and spacing (at
// least 1 s between accepted sends). Counted on the monotonic clock from accepted sends
// only; check() says exactly how long until a message of n segments would fit.
import type { Clock } from '../core/clock.js';

export const BUDGET_SEGMENTS = 60;
export const BUDGET_WINDOW_MS = 60_000;
export const SPACING_MS = 1_000;

interface Entry {
  at: number; // monotonic ms
  segments: number;
}

export type BudgetCheck = { ok: true } | { ok: false; retryAfterMs: number; because: 'spacing' | 'budget' };

export function createSendBudget(clock: Clock) {
  let entries: Entry[] = [];

  const prune = (now: number) => {
    let i = 0;
    while (i < entries.length && entries[i]!.at <= now - BUDGET_WINDOW_MS) i++;
    if (i > 0) entries = entries.slice(i);
  };

  const used = (now: number) => {
    prune(now);
    return entries.reduce((sum, e) => sum + e.segments, 0);
  };

  const check = (segments: number): BudgetCheck => {
    const now = clock.monotonicMs();
    const last = entries[entries.length - 1];
    const spacingWait = last ? Math.max(0, last.at + SPACING_MS - now) : 0;
    let total = used(now) + segments;
    let budgetWait = 0;
    // Walk forward through the window's oldest entries until enough have aged out.
    for (const e of entries) {
      if (total <= BUDGET_SEGMENTS) break;
      total -= e.segments;
      budgetWait = e.at + BUDGET_WINDOW_MS - now;
    }
    if (spacingWait <= 0 && budgetWait <= 0) return { ok: true };
    return budgetWait > spacingWait
      ? { ok: false, retryAfterMs: budgetWait, because: 'budget' }
      : { ok: false, retryAfterMs: spacingWait, because: 'spacing' };
  };

  return {
    check,
    /** Counts an accepted send now. */
    record(segments: number) {
      entries.push({ at: clock.monotonicMs(), segments });
    },
    /** Rebuilds from history at start: accepted sends with their age in ms. */
    seed(accepted: { ageMs: number; segments: number }[]) {
      const now = clock.monotonicMs();
      entries = accepted
        .map((a) => ({ at: now - Math.max(0, a.ageMs), segments: a.segments }))
        .filter((e) => e.at > now - BUDGET_WINDOW_MS)
        .sort((a, b) => a.at - b.at);
    },
    /** Segments used in the last 60 s and ms until the next 1-segment send may go. */
    usage() {
      const now = clock.monotonicMs();
      const segmentsUsed = used(now);
      const c = check(1);
      return { segmentsUsed, waitMs: c.ok ? 0 : c.retryAfterMs };
    },
  };
}

export type SendBudget = ReturnType<typeof createSendBudget>;
