// Keyword matching (docs/receiving.md, keyword rules): which rule, if any, a received SMS triggers.
// Case and surrounding spaces are ignored. `exact`: the whole text is the keyword ("Status "
// is STATUS, "status?" is not). `prefix`: the text begins with the keyword followed by its
// end, a space or a punctuation mark ("status garage" and "STATUS, please" are STATUS,
// "statuses" is not). A rule's `from` list restricts who triggers it. With
// SMS_GATEWAY_OPT_OUT on, an opt-out keyword (STOP, START and their kin; HELP and INFO when
// SMS_GATEWAY_HELP_REPLY answers them) wins: no rule matches it. The oldest matching rule
// wins. Pure: no state.
import type { OptOutSettings } from '../core/opt-out-settings.js';
import type { RuleRow } from '../store/rules.js';
import { optOutKeyword } from './opt-out-keywords.js';
import { normalizeRecipient, numberForms } from './recipient.js';

/** What may follow a prefix rule's keyword: a space or any Unicode punctuation. */
const AFTER_PREFIX = /^[\s\p{P}]/u;

/** Whether the text (any case, surrounding spaces ignored) is or begins with the keyword as the rule says. */
export function textMatches(rule: Pick<RuleRow, 'keyword' | 'match'>, text: string): boolean {
  const said = text.trim().toUpperCase();
  const keyword = rule.keyword.toUpperCase();
  if (rule.match === 'exact') return said === keyword;
  if (!said.startsWith(keyword)) return false;
  const rest = said.slice(keyword.length);
  return rest === '' || AFTER_PREFIX.test(rest);
}

/**
 * Whether the sender may trigger the rule: anyone when it has no `from` list, else a number on it (normalized, with or
 * without +).
 */
export function senderMatches(rule: Pick<RuleRow, 'from'>, sender: string | null): boolean {
  const allowed = rule.from;
  if (allowed === null) return true;
  if (sender === null) return false;
  const number = normalizeRecipient(sender);
  return number.ok && numberForms(number.number).some((form) => allowed.includes(form));
}

/** Whether the opt-out feature answers this text itself (then no rule does). */
export function optOutWins(settings: Pick<OptOutSettings, 'enabled' | 'helpReply'>, text: string): boolean {
  if (!settings.enabled) return false;
  const keyword = optOutKeyword(text);
  if (keyword === 'help') return settings.helpReply !== '';
  return keyword !== null;
}

/** The rule a received SMS triggers (the oldest of those that match), or null. */
export function matchRule<R extends Pick<RuleRow, 'keyword' | 'match' | 'from'>>(
  rules: readonly R[],
  sms: { from: string | null; body: string },
  settings: Pick<OptOutSettings, 'enabled' | 'helpReply'>,
): R | null {
  if (optOutWins(settings, sms.body)) return null;
  return rules.find((r) => textMatches(r, sms.body) && senderMatches(r, sms.from)) ?? null;
}
