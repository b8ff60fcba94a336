// Keyword rules' replies (docs/receiving.md), applied inside the transaction that
// stores the received SMS (received-effects.ts): the rule it triggers is found once there,
// its keyword is stored with the SMS and carried by its event, and its reply is queued in
// that same transaction (paced, recorded, `tags: { rule: <id> }`, origin rule_reply) after
// the loop and cost guard (auto-reply-guard.ts) let it through; an event-only rule (empty
// reply) sends nothing, and a sender on the opt-out list gets nothing (skipped and logged).
// At most once: the reply and the SMS marked seen commit together or not at all, and the
// reply's Idempotency-Key is made from the event's id and the rule's id.
import type { Logger } from 'pino';
import type { AutoReplyGuard } from './auto-reply-guard.js';
import { queueAnswer, type ReceivedSms } from './automatic-answer.js';
import type { Enqueue } from './enqueue.js';
import type { OptOutList } from './opt-out-list.js';
import { normalizeRecipient } from './recipient.js';
import type { Rules } from './rules.js';

/** What the records show as the source address of a rule's reply (as in 0.4). */
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
  const listed = (from: string) => {
    const number = normalizeRecipient(from);
    return number.ok && deps.optOuts.isListed(number.number);
  };

  return {
    /** Inside the transaction that stores the SMS: its reply queued; the keyword of the rule it triggers, or null. */
    apply(sms: ReceivedSms): string | null {
      const rule = deps.rules.matching(sms.from, sms.body);
      if (rule === null || rule.reply === '' || sms.from === null) return rule?.keyword ?? null;
      if (listed(sms.from)) {
        logger?.info({ rule: rule.id }, 'rule reply skipped: the sender is on the opt-out list');
        return rule.keyword;
      }
      const to = deps.guard.allow(sms.from, 'rule');
      if (to === null) return rule.keyword;
      const key = `rule:${sms.eventId}:${rule.id}`;
      const ctx = { origin: 'rule_reply', sourceIp: RULE_SOURCE, ownKey: key } as const;
      if (queueAnswer(deps, { to, message: rule.reply, tags: { rule: rule.id } }, ctx)) queued++;
      return rule.keyword;
    },
    /** Rule replies queued since the start (GET /metrics). */
    queued: () => queued,
  };
}

export type RuleReplies = ReturnType<typeof createRuleReplies>;
