// Keyword rules' replies (decisions "Keyword rules"), a listener of `sms.received`: a
// received SMS whose stored record carries a rule's keyword gets that rule's reply through
// the normal queue (paced, recorded, `tags: { rule: <id> }`), after the loop and cost guard
// (auto-reply-guard.ts) let it through; an event-only rule (empty reply) sends nothing, and
// a sender on the opt-out list gets nothing (skipped and logged).
// At most once: `sms.received` is announced once, after the commit that stored the SMS (see
// opt-out-replies.ts); a second announcement would replay the first answer, as the reply
// carries an Idempotency-Key made from the event's id and the rule's id. The rule is found
// again here from the sender and the text (the same matching the inbox did when it stored the
// SMS, in the same tick): a rule removed in between sends nothing.
import type { Logger } from 'pino';
import { GatewayError } from '../core/errors.js';
import type { WebhookEvent } from '../store/event-record.js';
import type { AutoReplyGuard } from './auto-reply-guard.js';
import type { Enqueue } from './enqueue.js';
import type { QueueOutcome } from './outcomes.js';
import type { OptOutList } from './opt-out-list.js';
import { normalizeRecipient } from './recipient.js';
import type { Rules } from './rules.js';

/** What the records show as the source of a rule's reply. */
export const RULE_SOURCE = 'rule';

export interface RuleRepliesDeps {
  rules: Pick<Rules, 'matching'>;
  optOuts: Pick<OptOutList, 'isListed'>;
  guard: Pick<AutoReplyGuard, 'allow'>;
  enqueue: Pick<Enqueue, 'accept'>;
  logger?: Logger | undefined;
}

export function createRuleReplies(deps: RuleRepliesDeps) {
  const { logger } = deps;
  let queued = 0;
  const counted = (outcome: QueueOutcome) => {
    if (outcome.kind === 'accepted') queued++;
  };
  const refused = (err: unknown) => {
    if (err instanceof GatewayError) logger?.warn({ code: err.code }, 'a rule reply was not queued');
    else logger?.error({ err }, 'a rule reply was not queued');
  };
  const listed = (from: string) => {
    const number = normalizeRecipient(from);
    return number.ok && deps.optOuts.isListed(number.number);
  };

  return {
    /** Listener of `sms.received`. */
    onReceived(event: WebhookEvent): void {
      const { from, body, keyword } = event.data;
      if (typeof keyword !== 'string' || typeof from !== 'string' || typeof body !== 'string') return;
      const rule = deps.rules.matching(from, body);
      if (rule === null || rule.keyword !== keyword || rule.reply === '') return;
      if (listed(from)) {
        logger?.info({ rule: rule.id }, 'rule reply skipped: the sender is on the opt-out list');
        return;
      }
      const to = deps.guard.allow(from, 'rule');
      if (to === null) return;
      try {
        const idempotencyKey = `rule:${event.id}:${rule.id}`;
        const ctx = { origin: 'rule_reply', sourceIp: RULE_SOURCE, idempotencyKey } as const;
        const outcome = deps.enqueue.accept({ to, message: rule.reply, tags: { rule: rule.id } }, ctx);
        if (outcome instanceof Promise) outcome.then(counted, refused);
        else counted(outcome);
      } catch (err) {
        refused(err);
      }
    },
    /** Rule replies queued since the start (GET /metrics). */
    queued: () => queued,
  };
}

export type RuleReplies = ReturnType<typeof createRuleReplies>;
