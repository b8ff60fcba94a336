// Loop and cost protection for every automatic message (docs/receiving.md): opt-out
// confirmations, HELP answers and keyword rules' replies. Only to a mobile or fixed-line
// number (answerable-number.ts: never an alphanumeric sender id, a short code, premium-rate,
// shared-cost, UAN, VoIP or unknown numbers); at most one per sender (the number in any of
// its forms) per 10 minutes, so two gateways answering each other stop; at most 30 an hour
// in all. The limits count the automatic answers the message table holds (their origin says
// so), asked inside the transaction that would queue one, so a restart does not reset them
// and a rolled-back answer never counted. A skip is logged (never the text) and counted
// (GET /metrics), and never queued.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { MessageStore } from '../store/messages.js';
import type { NumberClassifier } from './answerable-number.js';
import { numberForms } from './recipient.js';

export const PER_SENDER_MS = 10 * 60_000;
export const HOUR_MS = 3600_000;
export const PER_HOUR = 30;

/** not_dialable: no number at all; number_type: a number automatic messages never go to. */
export const SKIP_REASONS = ['not_dialable', 'number_type', 'sender_limit', 'hourly_limit'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface AutoReplyGuardDeps {
  clock: Clock;
  store: Pick<MessageStore, 'automaticSince'>;
  numbers: NumberClassifier;
  /** The SIM's country (ISO 3166 alpha-2) as the phone last told it, or null: national forms are then unknown. */
  country: () => string | null;
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
      const answerable = deps.numbers.classify(sender, deps.country());
      if (!answerable.ok) return skip(answerable.why, kind);
      const number = answerable.e164;
      const now = deps.clock.now();
      if (deps.store.automaticSince(now - PER_SENDER_MS, numberForms(number)) > 0) return skip('sender_limit', kind);
      if (deps.store.automaticSince(now - HOUR_MS) >= PER_HOUR) return skip('hourly_limit', kind);
      return number;
    },
    /** Loads what classifying a number needs (once); asked before the transaction that may answer. */
    loadNumbering: () => deps.numbers.load(),
    /** Skips since the start, by reason (GET /metrics). */
    skipped: (): ReadonlyMap<SkipReason, number> => skipped,
  };
}

export type AutoReplyGuard = ReturnType<typeof createAutoReplyGuard>;
