// The tests' clock: it moves only when told (advance, tick, runAll), firing each timer due
// on the way at its own time; and letSettle, which lets promise chains run a few turns.
// Wall and monotonic time move together unless set() moves the wall clock alone (a phone's
// clock corrected or changed). A timer asked for past 2^31-1 ms throws, as Node would
// silently fire it after 1 ms instead.
import type { Clock } from '../../src/core/clock.js';

/** The longest delay Node's setTimeout takes as given (core/clock.ts MAX_TIMER_STEP_MS). */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface FakeClock extends Clock {
  /** Moves time on, firing each timer due on the way at its own time, in order. */
  advance(ms: number): void;
  /** As advance(), letting promises (and the loops they drive) settle after each timer. */
  tick(ms: number): Promise<void>;
  /** Fires every timer, moving time to each, until none is left (at most `limit`). */
  runAll(limit?: number): Promise<void>;
  /** Sets the wall clock only (a phone's clock change); timers follow monotonic time. */
  set(wallMs: number): void;
  /** Timers set and not yet fired or cancelled. */
  pendingTimers(): number;
  /** Timers fired since the clock was made (wake-ups: the phone's battery pays for each). */
  firedTimers(): number;
}

/** Lets promise chains and immediate callbacks settle (a few event-loop turns). */
export async function letSettle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** A clock that only moves when told; wall and monotonic time move together unless set(). */
export function fakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): FakeClock {
  let wall = start;
  let mono = 1_000_000;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const moveTo = (at: number) => {
    wall += at - mono;
    mono = at;
  };
  let fired = 0; // in the current advance/tick: a loop re-arming at 0 ms must fail, not hang
  let firedEver = 0;
  /** The earliest timer due by `until` (ties: the one set first), taken off the list. */
  const nextDue = (until: number) => {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const e of timers) if (e[1].at <= until && (!best || e[1].at < best[1].at)) best = e;
    if (best) timers.delete(best[0]);
    if (best) firedEver++;
    if (best && ++fired > 10_000) throw new Error('fake clock: over 10 000 timers fired in one move (a timer loop?)');
    return best?.[1];
  };
  const clock: FakeClock = {
    now: () => wall,
    monotonicMs: () => mono,
    setTimer(fn, ms) {
      if (ms > MAX_TIMER_MS) throw new Error(`fake clock: a timer of ${ms} ms (Node would fire it after 1 ms)`);
      const id = ++seq;
      timers.set(id, { at: mono + Math.max(0, ms), fn });
      return { cancel: () => void timers.delete(id) };
    },
    advance(ms) {
      fired = 0;
      const until = mono + ms;
      for (let t = nextDue(until); t; t = nextDue(until)) {
        moveTo(t.at);
        t.fn();
      }
      moveTo(until);
    },
    async tick(ms) {
      fired = 0;
      const until = mono + ms;
      await letSettle();
      for (let t = nextDue(until); t; t = nextDue(until)) {
        moveTo(t.at);
        t.fn();
        await letSettle();
      }
      moveTo(until);
      await letSettle();
    },
    async runAll(limit = 1000) {
      await letSettle();
      for (let i = 0; i < limit && timers.size > 0; i++) {
        const t = nextDue(Infinity)!;
        moveTo(Math.max(mono, t.at));
        t.fn();
        await letSettle();
      }
    },
    set(wallMs) {
      wall = wallMs;
    },
    pendingTimers: () => timers.size,
    firedTimers: () => firedEver,
  };
  return clock;
}
