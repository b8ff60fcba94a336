// What a received SMS changes, applied by the inbox inside the transaction that stores it
// (events/inbox-memory.ts): its opt-out keyword's change to the list and its answer
// (opt-out-replies.ts), then the keyword rule it triggers and its reply (rule-replies.ts;
// opt-out keywords win, keyword-match.ts). No storage fault, crash or restart between
// storing the SMS and acting on it can lose or double an effect: they commit together.
// Listeners of `sms.received` after the commit only announce.
import type { ReceivedSms } from './automatic-answer.js';
import type { OptOutReplies } from './opt-out-replies.js';
import type { RuleReplies } from './rule-replies.js';

export type { ReceivedSms } from './automatic-answer.js';

/** Applied inside the transaction that stores the SMS; what it decided that the SMS's record keeps. */
export type ReceivedEffects = (sms: ReceivedSms) => { keyword: string | null };

type EffectsDeps = { optOut: Pick<OptOutReplies, 'apply'>; rules: Pick<RuleReplies, 'apply'> };

export function createReceivedEffects(deps: EffectsDeps): ReceivedEffects {
  return (sms) => {
    deps.optOut.apply(sms);
    return { keyword: deps.rules.apply(sms) };
  };
}
