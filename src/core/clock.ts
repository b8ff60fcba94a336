// Time, injectable. Wall-clock milliseconds for what is stored and shown; a monotonic
// reading for intervals (rate limits, budget, spacing, backoff), which a phone's clock
// change cannot move; and the one place that schedules a callback for later (every loop
// and wait in the gateway goes through setTimer, so a test's fake clock moves them all).
import { performance } from 'node:perf_hooks';

/** A scheduled callback; cancel() is harmless after it ran or was cancelled. */
export interface Timer {
  cancel(): void;
}

export interface Clock {
  /** Wall-clock time, ms since the Unix epoch. */
  now(): number;
  /** Monotonic time in ms; only differences are meaningful. */
  monotonicMs(): number;
  /** Runs fn once after ms (monotonic). The system clock's timers never keep the process alive. */
  setTimer(fn: () => void, ms: number): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonicMs: () => performance.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, Math.max(0, ms));
    t.unref();
    return { cancel: () => clearTimeout(t) };
  },
};

/** Resolves after ms on the clock (for a bounded wait, e.g. a stop's grace). */
export function sleepFor(clock: Clock, ms: number): { done: Promise<void>; cancel(): void } {
  let timer: Timer | undefined;
  const done = new Promise<void>((resolve) => {
    timer = clock.setTimer(resolve, ms);
  });
  return { done, cancel: () => timer?.cancel() };
}
