// The queue's pause after timed-out hand-offs: 30 s after the first, then 1, 2, 4 ... up to
// 10 minutes, ended by the next hand-off that succeeds (a phone whose Termux:API hangs is
// not asked again and again). On the monotonic clock: a wall-clock change cannot move it.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { HandoffResult } from './handoff.js';

/** Pause after a timed-out hand-off: 30 s, doubling from 1 minute, at most 10 minutes. */
export function pauseMs(consecutiveTimeouts: number): number {
  if (consecutiveTimeouts <= 0) return 0;
  if (consecutiveTimeouts === 1) return 30_000;
  return Math.min(600_000, 60_000 * 2 ** (consecutiveTimeouts - 2));
}

/** The pause after timed-out hand-offs (pauseMs), ended by the next one that succeeds. */
export function pauseState(clock: Clock, logger: Logger | undefined) {
  let consecutiveTimeouts = 0;
  let pauseUntil = 0; // monotonic; 0 = not paused
  return {
    after(result: HandoffResult) {
      if (result.ok) {
        consecutiveTimeouts = 0;
        pauseUntil = 0;
      } else if (result.reason === 'timeout') {
        consecutiveTimeouts++;
        pauseUntil = clock.monotonicMs() + pauseMs(consecutiveTimeouts);
        logger?.warn({ pauseMs: pauseMs(consecutiveTimeouts) }, 'hand-off timed out: the queue pauses');
      }
    },
    /** Ms left of the pause, 0 when not paused. */
    remainingMs: () => Math.max(0, pauseUntil - clock.monotonicMs()),
    consecutiveTimeouts: () => consecutiveTimeouts,
  };
}

export type PauseState = ReturnType<typeof pauseState>;
