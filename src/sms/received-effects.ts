// What a received SMS changes, applied by the inbox inside the transaction that stores it
// (events/inbox-memory.ts): its opt-out keyword's change to the list and its answer
// (opt-out-replies.ts), then the keyword rule it triggers and its reply (rule-replies.ts;
// opt-out keywords win, keyword-match.ts). No storage fault, crash or restart between
// storing the SMS and acting on it can lose or double an effect: they commit together.
// Listeners of `sms.received` after the commit only announce. loadNumbering(), before that
// transaction, loads what classifying a sender's number needs, only when an automatic
// answer is possible at all (opt-out answers or a rule with a reply).
import type { OptOutSettings } from '../core/opt-out-settings.js';
import type { AutoReplyGuard } from './auto-reply-guard.js';
import type { ReceivedSms } from './automatic-answer.js';
import type { OptOutReplies } from './opt-out-replies.js';
import type { RuleReplies } from './rule-replies.js';
import type { Rules } from './rules.js';

export type { ReceivedSms } from './automatic-answer.js';

export interface ReceivedEffects {
  /** Before the transaction: what the answers' guard needs, loaded when an answer is possible. */
  loadNumbering(): Promise<void>;
  /** Inside the transaction that stores the SMS; what it decided that the SMS's record keeps. */
  apply(sms: ReceivedSms): { keyword: string | null };
}

interface EffectsDeps {
  optOut: Pick<OptOutReplies, 'apply'>;
  rules: Pick<RuleReplies, 'apply'>;
  settings: OptOutSettings;
  ruleList: Pick<Rules, 'list'>;
  guard: Pick<AutoReplyGuard, 'loadNumbering'>;
}

/** Whether any automatic answer could be queued now. */
function answersPossible(deps: EffectsDeps): boolean {
  const { enabled, optOutReply, optInReply, helpReply } = deps.settings;
  if (enabled && (optOutReply !== '' || optInReply !== '' || helpReply !== '')) return true;
  return deps.ruleList.list().some((rule) => rule.reply !== '');
}

export function createReceivedEffects(deps: EffectsDeps): ReceivedEffects {
  let prepared = false;
  return {
    async loadNumbering() {
      if (prepared || !answersPossible(deps)) return;
      await deps.guard.loadNumbering();
      prepared = true;
    },
    apply(sms) {
      deps.optOut.apply(sms);
      return { keyword: deps.rules.apply(sms) };
    },
  };
}
