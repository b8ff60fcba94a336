// Time, injectable. Wall-clock milliseconds for what is stored and shown; a monotonic
// reading for intervals (rate limits, budget, spacing, backoff), which a phone's clock
// change cannot move.
import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Wall-clock time, ms since the Unix epoch. */
  now(): number;
  /** Monotonic time in ms; only differences are meaningful. */
  monotonicMs(): number;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  monotonicMs: () => performance.now(),
};
