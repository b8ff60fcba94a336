// The diagnostics `queue` check: how many messages wait, since when, whether the lane is
// paused after a hung hand-off and when it tries again, and the pace it keeps.
import type { PacingUsage } from '../sms/pacing.js';
import type { QueueState } from '../sms/lane.js';
import { check, type CheckOf } from './check.js';
import { isoOrNull as iso } from '../core/clock.js';

export function queueCheck(
  state: QueueState,
  usage: PacingUsage,
  cfg: { now: number; queueRate: number; quietHours: string | null },
): CheckOf<'queue'> {
  const value = {
    waiting: state.waiting,
    paused: state.paused,
    nextAttemptAt: iso(state.nextAttemptAt),
    oldestWaitingSince: iso(state.oldestWaitingSince),
    consecutiveTimeouts: state.consecutiveTimeouts,
    queueRate: cfg.queueRate,
    queuedSegmentsLast60s: usage.queuedSegmentsUsed,
    quietHours: cfg.quietHours,
  };
  if (state.paused) {
    return check(
      'degraded',
      value,
      `A hand-off timed out (${state.consecutiveTimeouts} in a row): Termux:API is not answering. Waiting messages ` +
        `stay queued; the next try is at ${value.nextAttemptAt}. Open the Termux:API app, set its battery use to ` +
        `Unrestricted, and run sms-gateway doctor.`,
    );
  }
  return check('ok', value);
}
