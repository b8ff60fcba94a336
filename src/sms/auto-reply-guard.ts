// Loop and cost protection for every automatic message (decisions "Keyword rules"): opt-out
// confirmations and HELP answers now, keyword rules' replies later. Never to a sender that
// is not a dialable number (an alphanumeric sender id, or fewer than 7 digits: short codes
// can be premium, and two gateways answering each other would loop); at most one per
// sender per 10 minutes; at most 30 an hour in all. A skip is logged (never the text) and
// counted (GET /metrics), and never queued. Intervals are on the monotonic clock, which no
// wall-clock change moves; the counts live in memory (a restart begins them afresh).
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';

export const PER_SENDER_MS = 10 * 60_000;
export const HOUR_MS = 3600_000;
export const PER_HOUR = 30;

export const SKIP_REASONS = ['not_dialable', 'sender_limit', 'hourly_limit'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** A sender the gateway may answer: an optional + and 7 to 15 digits (separators removed). */
const DIALABLE = /^\+?[0-9]{7,15}$/;

/** The sender as a number to answer, or null when it is not a dialable number. */
export function dialableNumber(sender: string): string | null {
  const number = sender.replace(/[ \-.()]/g, '');
  return DIALABLE.test(number) ? number : null;
}

export function createAutoReplyGuard(deps: { clock: Clock; logger?: Logger | undefined }) {
  const lastBySender = new Map<string, number>();
  const sentTimes: number[] = [];
  const skipped = new Map<SkipReason, number>(SKIP_REASONS.map((r) => [r, 0]));

  const skip = (reason: SkipReason, kind: string): null => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    deps.logger?.info({ kind, reason }, 'automatic reply skipped');
    return null;
  };
  /** Forgets what no longer limits anything. */
  const prune = (mono: number) => {
    for (const [sender, at] of lastBySender) if (mono - at >= PER_SENDER_MS) lastBySender.delete(sender);
    while (sentTimes.length > 0 && mono - sentTimes[0]! >= HOUR_MS) sentTimes.shift();
  };

  return {
    /**
     * Whether an automatic message (`kind`: opt_out, opt_in, help, rule) may go to `sender`:
     * the number to queue it for (counted against the limits), or null (skipped, logged, counted).
     */
    allow(sender: string, kind: string): string | null {
      const number = dialableNumber(sender);
      if (number === null) return skip('not_dialable', kind);
      const mono = deps.clock.monotonicMs();
      prune(mono);
      if (lastBySender.has(number)) return skip('sender_limit', kind);
      if (sentTimes.length >= PER_HOUR) return skip('hourly_limit', kind);
      lastBySender.set(number, mono);
      sentTimes.push(mono);
      return number;
    },
    /** Skips since the start, by reason (GET /metrics). */
    skipped: (): ReadonlyMap<SkipReason, number> => skipped,
  };
}

export type AutoReplyGuard = ReturnType<typeof createAutoReplyGuard>;
