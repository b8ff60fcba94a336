// Opt-out keywords in received SMS (docs/receiving.md), applied inside the
// transaction that stores the SMS (received-effects.ts): with SMS_GATEWAY_OPT_OUT=true, STOP
// and its kin put the sender on the list, START and UNSTOP take it off, and each change is
// confirmed by one SMS queued in that same transaction; HELP and INFO are answered when
// SMS_GATEWAY_HELP_REPLY is set. Every answer passes the loop and cost guard
// (auto-reply-guard.ts) first. At most once: the change, its answer and the SMS marked seen
// commit together or not at all; the SMS is read again after a rollback, and a change
// already made changes nothing (no change, no answer).
import type { Logger } from 'pino';
import type { OptOutSettings } from '../core/opt-out-settings.js';
import type { Origin } from '../store/message-record.js';
import type { AutoReplyGuard } from './auto-reply-guard.js';
import { queueAnswer, type ReceivedSms } from './automatic-answer.js';
import type { Enqueue } from './enqueue.js';
import { optOutKeyword, type OptOutKeyword } from './opt-out-keywords.js';
import { OPT_OUT_SOURCE, type OptOutList } from './opt-out-list.js';
import { normalizeRecipient } from './recipient.js';

/** The origin each answer is recorded with (the opt-out list lets opt_out_reply and help_reply through). */
const ORIGIN: Record<OptOutKeyword, Origin> = { opt_out: 'opt_out_reply', opt_in: 'opt_in_reply', help: 'help_reply' };
/** How each answer's Idempotency-Key begins (as in 0.4). */
const KEY: Record<OptOutKeyword, string> = { opt_out: 'opt-out:', opt_in: 'opt-in:', help: 'opt-out:' };

export interface OptOutRepliesDeps {
  settings: OptOutSettings;
  list: Pick<OptOutList, 'add' | 'remove'>;
  guard: Pick<AutoReplyGuard, 'allow'>;
  enqueue: Pick<Enqueue, 'accept'>;
  logger?: Logger | undefined;
}

/** The keyword's effect on the list; false when it changed nothing (or the sender cannot be listed). */
function applyKeyword(deps: OptOutRepliesDeps, keyword: OptOutKeyword, from: string): boolean {
  if (keyword === 'help') return true;
  const number = normalizeRecipient(from);
  if (!number.ok) return false; // an alphanumeric sender id is never a recipient
  const row = keyword === 'opt_out' ? deps.list.add(number.number, 'sms') : deps.list.remove(number.number, 'sms');
  return row !== undefined;
}

export function createOptOutReplies(deps: OptOutRepliesDeps) {
  const { settings } = deps;
  const answers: Record<OptOutKeyword, string> = {
    opt_out: settings.optOutReply,
    opt_in: settings.optInReply,
    help: settings.helpReply,
  };

  return {
    /** Inside the transaction that stores the SMS: the list changed and the answer queued. */
    apply(sms: ReceivedSms): void {
      if (!settings.enabled || sms.from === null) return;
      const keyword = optOutKeyword(sms.body);
      if (keyword === null || !applyKeyword(deps, keyword, sms.from)) return;
      const text = answers[keyword];
      if (text === '') return;
      const to = deps.guard.allow(sms.from, keyword);
      if (to === null) return;
      const key = `${KEY[keyword]}${sms.eventId}`;
      const ctx = { origin: ORIGIN[keyword], sourceIp: OPT_OUT_SOURCE, ownKey: key };
      queueAnswer(deps, { to, message: text }, ctx);
    },
  };
}

export type OptOutReplies = ReturnType<typeof createOptOutReplies>;
