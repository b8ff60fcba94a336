// How long the event loop takes to come round once more (diagnostics' `process.eventLoopLagMs`):
// a one-off real-time reading, not a timer the clock owns (nothing is scheduled by it; a
// fake clock would make it meaningless).
import { performance } from 'node:perf_hooks';

/** Milliseconds (one decimal) from now until the event loop's next check phase. */
export function measureEventLoopLag(): Promise<number> {
  return new Promise<number>((resolve) => {
    const t0 = performance.now();
    setImmediate(() => resolve(Math.round((performance.now() - t0) * 10) / 10));
  });
}
