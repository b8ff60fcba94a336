// Time, injectable. Wall-clock milliseconds for what is stored and shown; a monotonic
// reading for intervals (rate limits, budget, spacing, backoff), which a phone's clock
// change cannot move; and the one place that schedules a callback for later (every loop
// and wait in the gateway goes through setTimer, so a test's fake clock moves them all).
// The system clock arms a long wait in steps of at most MAX_TIMER_STEP_MS: Node replaces a
// delay past 2^31-1 ms with 1 ms (a TimeoutOverflowWarning, and a loop that spins).
// Also how a wall-clock time is shown (isoOrNull) and the event loop's lag, read once.
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

/** The longest delay Node's setTimeout takes as given (2^31-1 ms, about 24.86 days). */
export const MAX_TIMER_STEP_MS = 2 ** 31 - 1;

/**
 * The real clock. A timer longer than `maxStepMs` is armed in steps, each re-armed for what
 * is left on the monotonic clock, so no setTimeout ever gets more than Node takes.
 */
export function createSystemClock(opts: { maxStepMs?: number } = {}): Clock {
  const maxStep = Math.max(1, Math.min(MAX_TIMER_STEP_MS, opts.maxStepMs ?? MAX_TIMER_STEP_MS));
  return {
    now: () => Date.now(),
    monotonicMs: () => performance.now(),
    setTimer(fn, ms) {
      const dueAt = performance.now() + Math.max(0, ms);
      let t: NodeJS.Timeout | undefined;
      const arm = (left: number) => {
        t = setTimeout(step, Math.min(maxStep, Math.max(0, left)));
        t.unref();
      };
      const step = () => {
        const left = dueAt - performance.now();
        if (left >= 1) arm(Math.ceil(left));
        else fn();
      };
      arm(Math.ceil(dueAt - performance.now()));
      return { cancel: () => clearTimeout(t) };
    },
  };
}

export const systemClock: Clock = createSystemClock();

/** Resolves after ms on the clock (for a bounded wait, e.g. a stop's grace). */
export function sleepFor(clock: Clock, ms: number): { done: Promise<void>; cancel(): void } {
  let timer: Timer | undefined;
  const done = new Promise<void>((resolve) => {
    timer = clock.setTimer(resolve, ms);
  });
  return { done, cancel: () => timer?.cancel() };
}

/** A wall-clock ms value as the API and diagnostics show it: ISO 8601 UTC, or null. */
export function isoOrNull(ms: number | null | undefined): string | null {
  return ms === null || ms === undefined ? null : new Date(ms).toISOString();
}

/**
 * How long the event loop takes to come round once more, in ms with one decimal (diagnostics'
 * `process.eventLoopLagMs`): a one-off real-time reading, not a timer the clock owns (a fake
 * clock would make it meaningless).
 */
export function measureEventLoopLag(): Promise<number> {
  return new Promise<number>((resolve) => {
    const t0 = performance.now();
    setImmediate(() => resolve(Math.round((performance.now() - t0) * 10) / 10));
  });
}
