// Which queued message the lane hands off next, and expiry. A pause, quiet hours, sendAt
// and the queue's pacing hold the next message; a message past its expiresAt is never
// handed off (expiry has its own wake-up in the lane; a next message already past it, after
// a wall clock set forward, is expired at the pick), nor one whose recipient opted out
// since it was accepted (failed/opted_out at the pick: sms/opt-out-intake.ts).
import type { Logger } from 'pino';
import { quietRemainingMs, type QuietHours } from '../core/quiet-hours.js';
import type { MessageRow } from '../store/messages.js';
import type { QueueStore } from '../store/queue.js';
import type { Pacing } from './pacing.js';

export interface PickDeps {
  queue: QueueStore;
  pacing: Pacing;
  timeZone: () => string;
  quietHours?: QuietHours | undefined;
  logger?: Logger | undefined;
  /** Fails the message when its recipient is on the opt-out list now; true when it did. */
  optedOut?: ((row: MessageRow, now: number) => boolean) | undefined;
}

/** The longest the expiry wake-up sleeps: a wall clock set forward is caught within this. */
const EXPIRY_RECHECK_MS = 60_000;

/** Expires what is due; the ms until the next expiresAt (undefined: none waits). */
export function expireDue(deps: PickDeps, now: number): { expired: number; nextInMs: number | undefined } {
  const expired = deps.queue.expireDue(now);
  if (expired.length > 0) deps.logger?.info({ ids: expired }, 'queued messages expired unsent');
  const next = deps.queue.nextExpiry();
  return {
    expired: expired.length,
    nextInMs: next === null ? undefined : Math.min(EXPIRY_RECHECK_MS, Math.max(0, next - now)),
  };
}

/**
 * The queued message to hand off now, or the ms until one may go (undefined: nothing
 * waits). A pause, quiet hours, sendAt and the queue's pacing hold it. Never one past its
 * expiresAt: expiry has its own wake-up (sms/lane.ts), but a next message already past it
 * (a wall clock set forward) is expired here first, so no hand-off pays for an expiry run.
 */
export function pickQueued(
  deps: PickDeps,
  now: number,
  pausedMs: number,
): { row: MessageRow } | { waitMs: number | undefined } {
  const { queue, pacing } = deps;
  if (pausedMs > 0) return { waitMs: pausedMs };
  for (;;) {
    let next = queue.next(now);
    if (next && next.expiresAt !== null && next.expiresAt <= now) {
      expireDue(deps, now);
      next = queue.next(now);
    }
    if (!next) return { waitMs: undefined }; // nothing waits: no timer
    const quiet = quietRemainingMs(deps.quietHours, now, deps.timeZone());
    const dueIn = next.dueAt - now;
    if (quiet > 0 || dueIn > 0) return { waitMs: Math.max(quiet, dueIn) };
    if (deps.optedOut?.(next, now)) continue; // failed, never handed off: the next one
    const wait = pacing.queuedWaitMs(next.segments);
    if (wait > 0) return { waitMs: wait };
    return { row: next };
  }
}
