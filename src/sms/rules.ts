// The keyword rules as the gateway uses them (docs/receiving.md, keyword rules): added and removed
// over the API (at most MAX_RULES, `from` numbers normalized like a recipient, a reply the
// queue would refuse refused at once rather than at every trigger), and the one
// question the inbox asks when it stores a received SMS: which rule it triggers
// (keyword-match.ts), so its record and its `sms.received` event carry that rule's keyword.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { gatewayError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import type { OptOutSettings } from '../core/opt-out-settings.js';
import type { RuleMatch, RuleRow, RuleStore } from '../store/rules.js';
import { matchRule } from './keyword-match.js';
import { normalizeRecipient } from './recipient.js';
import { hasVisibleCharacter } from './visible-text.js';

export const MAX_RULES = 50;

export interface NewRule {
  keyword: string;
  match: RuleMatch;
  reply: string;
  from?: string[] | undefined;
}

export interface RulesDeps {
  store: RuleStore;
  clock: Clock;
  /** Whether (and which) opt-out keywords win over rules. */
  optOut: Pick<OptOutSettings, 'enabled' | 'helpReply'>;
  logger?: Logger | undefined;
}

/** The `from` list normalized (duplicates dropped); an invalid number is invalid_request naming body.from[i]. */
function fromNumbers(raw: string[] | undefined): string[] | null {
  if (raw === undefined) return null;
  const numbers = raw.map((n, i) => {
    const r = normalizeRecipient(n);
    if (!r.ok)
      throw gatewayError('invalid_request', 'problem', `body.from[${i}]: ${r.message.replace(/^to /, 'a number ')}.`);
    return r.number;
  });
  return [...new Set(numbers)];
}

/**
 * The reply as the queue will take it: empty (event-only), or a text with a visible character and no lone surrogate.
 */
function replyText(reply: string): string {
  if (reply === '' || (hasVisibleCharacter(reply) && reply.isWellFormed())) return reply;
  throw gatewayError(
    'invalid_request',
    'problem',
    'body.reply must be empty (an event-only rule) or have a visible character (and no lone UTF-16 surrogate).',
  );
}

export function createRules(deps: RulesDeps) {
  const { store, clock } = deps;
  const matching = (from: string | null, body: string): RuleRow | null =>
    matchRule(store.list(), { from, body }, deps.optOut);
  return {
    list: () => store.list(),
    /** Stores a rule; too_many_rules when MAX_RULES exist. */
    add(rule: NewRule): RuleRow {
      const now = clock.now();
      const row: RuleRow = {
        id: newId('rule', now),
        keyword: rule.keyword,
        match: rule.match,
        reply: replyText(rule.reply),
        from: fromNumbers(rule.from),
        createdAt: now,
      };
      if (!store.add(row, MAX_RULES)) throw gatewayError('too_many_rules', 'atMost', MAX_RULES);
      deps.logger?.info({ id: row.id, match: row.match }, 'a keyword rule was added');
      return row;
    },
    /** False when no rule has this id. */
    remove: (id: string) => store.remove(id),
    /** The rule a received SMS triggers, or null. */
    matching,
    /** The keyword of the rule a received SMS triggers, or null (stored with it, in its event). */
    keywordOf: (from: string | null, body: string): string | null => matching(from, body)?.keyword ?? null,
  };
}

export type Rules = ReturnType<typeof createRules>;
