// Pacing of hand-offs, counted when a hand-off starts (never at acceptance), on the
// monotonic clock: at least 1 s between hand-offs; at most 60 segments handed off in any
// rolling 60 s, synchronous and queued together; and queued hand-offs also within the
// queue rate (SMS_GATEWAY_QUEUE_RATE segments per rolling 60 s). Rebuilt from the messages
// table at start, so a restart resets nothing. Says how long until a hand-off may start.
import type { Clock } from '../core/clock.js';

export const BUDGET_SEGMENTS = 60;
export const BUDGET_WINDOW_MS = 60_000;
export const SPACING_MS = 1_000;

interface Entry {
  at: number; // monotonic ms of the hand-off's start
  segments: number;
  queued: boolean;
}

export interface PacingUsage {
  /** Segments handed off in the last 60 s (both paths) and by the queue alone. */
  segmentsUsed: number;
  queuedSegmentsUsed: number;
  /** Ms until a 1-segment synchronous hand-off may start. */
  waitMs: number;
}

export function createPacing(clock: Clock, queueRate: number) {
  let entries: Entry[] = [];

  const prune = (now: number) => {
    let i = 0;
    while (i < entries.length && entries[i]!.at <= now - BUDGET_WINDOW_MS) i++;
    if (i > 0) entries = entries.slice(i);
  };

  /** Ms until the window's matching entries plus `segments` fit `limit`. */
  const windowWait = (now: number, segments: number, limit: number, queuedOnly: boolean): number => {
    const counted = queuedOnly ? entries.filter((e) => e.queued) : entries;
    let total = counted.reduce((sum, e) => sum + e.segments, 0) + segments;
    let wait = 0;
    for (const e of counted) {
      if (total <= limit) break;
      total -= e.segments;
      wait = e.at + BUDGET_WINDOW_MS - now;
    }
    return Math.max(0, wait);
  };

  const budgetWaitMs = (segments: number): number => {
    const now = clock.monotonicMs();
    prune(now);
    return windowWait(now, segments, BUDGET_SEGMENTS, false);
  };

  const spacingWaitMs = (): number => {
    const last = entries[entries.length - 1];
    return last ? Math.max(0, last.at + SPACING_MS - clock.monotonicMs()) : 0;
  };

  /**
   * Ms until a queued message of `segments` may be handed off. A message longer than the
   * queue rate goes alone: when no other queued segment is in the window.
   */
  const queuedWaitMs = (segments: number): number => {
    const now = clock.monotonicMs();
    prune(now);
    const rate = windowWait(now, segments, Math.max(queueRate, segments), true);
    return Math.max(spacingWaitMs(), windowWait(now, segments, BUDGET_SEGMENTS, false), rate);
  };

  return {
    queueRate,
    budgetWaitMs,
    spacingWaitMs,
    queuedWaitMs,
    /** Ms until a synchronous message of `segments` may be handed off. */
    syncWaitMs: (segments: number) => Math.max(spacingWaitMs(), budgetWaitMs(segments)),
    /** Counts a hand-off starting now. */
    record(segments: number, queued: boolean) {
      entries.push({ at: clock.monotonicMs(), segments, queued });
    },
    /** Rebuilds from the table at start: hand-offs with their age in ms. */
    seed(handoffs: { ageMs: number; segments: number; queued: boolean }[]) {
      const now = clock.monotonicMs();
      entries = handoffs
        .map((h) => ({ at: now - Math.max(0, h.ageMs), segments: h.segments, queued: h.queued }))
        .filter((e) => e.at > now - BUDGET_WINDOW_MS)
        .sort((a, b) => a.at - b.at);
    },
    usage(): PacingUsage {
      const now = clock.monotonicMs();
      prune(now);
      return {
        segmentsUsed: entries.reduce((s, e) => s + e.segments, 0),
        queuedSegmentsUsed: entries.reduce((s, e) => s + (e.queued ? e.segments : 0), 0),
        waitMs: Math.max(spacingWaitMs(), windowWait(now, 1, BUDGET_SEGMENTS, false)),
      };
    },
  };
}

export type Pacing = ReturnType<typeof createPacing>;
