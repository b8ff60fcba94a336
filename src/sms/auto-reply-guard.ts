// Loop and cost protection for every automatic message (decisions "Keyword rules"): opt-out
// confirmations, HELP answers and keyword rules' replies. Never to a sender that is not a
// dialable number (an alphanumeric sender id, or fewer than 7 digits: short codes can be
// premium, and two gateways answering each other would loop); at most one per sender per 10
// minutes; at most 30 an hour in all. The limits count the automatic answers the message
// table holds (their origin says so), asked inside the transaction that would queue one, so a
// restart does not reset them and a rolled-back answer never counted. A skip is logged (never
// the text) and counted (GET /metrics), and never queued.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { MessageStore } from '../store/messages.js';
import { numberForms } from './recipient.js';

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

export interface AutoReplyGuardDeps {
  clock: Clock;
  store: Pick<MessageStore, 'automaticSince'>;
  logger?: Logger | undefined;
}

export function createAutoReplyGuard(deps: AutoReplyGuardDeps) {
  const skipped = new Map<SkipReason, number>(SKIP_REASONS.map((r) => [r, 0]));

  const skip = (reason: SkipReason, kind: string): null => {
    skipped.set(reason, (skipped.get(reason) ?? 0) + 1);
    deps.logger?.info({ kind, reason }, 'automatic reply skipped');
    return null;
  };

  return {
    /**
     * Whether an automatic message (`kind`: opt_out, opt_in, help, rule) may go to `sender`:
     * the number to queue it for, or null (skipped, logged, counted). Asked inside the
     * transaction that queues it, so what it counts and what is queued are one.
     */
    allow(sender: string, kind: string): string | null {
      const number = dialableNumber(sender);
      if (number === null) return skip('not_dialable', kind);
      const now = deps.clock.now();
      if (deps.store.automaticSince(now - PER_SENDER_MS, numberForms(number)) > 0) return skip('sender_limit', kind);
      if (deps.store.automaticSince(now - HOUR_MS) >= PER_HOUR) return skip('hourly_limit', kind);
      return number;
    },
    /** Skips since the start, by reason (GET /metrics). */
    skipped: (): ReadonlyMap<SkipReason, number> => skipped,
  };
}

export type AutoReplyGuard = ReturnType<typeof createAutoReplyGuard>;
