// Opt-out keywords in received SMS (decisions "Opt-out (STOP)"), a listener of
// `sms.received`: with SMS_GATEWAY_OPT_OUT=true, STOP and its kin put the sender on the
// list, START and UNSTOP take it off, and each change is confirmed by one SMS through the
// normal queue; HELP and INFO are answered when SMS_GATEWAY_HELP_REPLY is set. Every answer
// passes the loop and cost guard (auto-reply-guard.ts) first.
// At most once: `sms.received` is announced once, after the commit that stored the SMS and
// moved the inbox's watermark past it (store/outbox.ts, events/inbox-memory.ts), and never
// again, also not after a restart (the SMS is then already seen). A second announcement would
// still queue nothing: the change it asks for is already made (no change, no answer), and
// the answer carries an Idempotency-Key made from the event's id. The cost of this choice: a
// crash between that commit and this listener (the same tick) loses the keyword's effect.
import type { Logger } from 'pino';
import type { OptOutSettings } from '../core/opt-out-settings.js';
import { GatewayError } from '../core/errors.js';
import type { WebhookEvent } from '../store/event-record.js';
import type { AutoReplyGuard } from './auto-reply-guard.js';
import type { Enqueue } from './enqueue.js';
import { optOutKeyword, type OptOutKeyword } from './opt-out-keywords.js';
import { OPT_OUT_SOURCE, type OptOutList } from './opt-out-list.js';
import type { Origin } from '../store/message-record.js';
import { normalizeRecipient } from './recipient.js';

/** The origin each answer is recorded with (the opt-out list lets opt_out_reply and help_reply through). */
const ORIGIN: Record<OptOutKeyword, Origin> = { opt_out: 'opt_out_reply', opt_in: 'opt_in_reply', help: 'help_reply' };

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
  const { settings, logger } = deps;
  const answers: Record<OptOutKeyword, string> = { opt_out: settings.optOutReply, opt_in: settings.optInReply, help: settings.helpReply };
  const refused = (err: unknown) => {
    if (err instanceof GatewayError) logger?.warn({ code: err.code }, 'an opt-out answer was not queued');
    else logger?.error({ err }, 'an opt-out answer was not queued');
  };

  return {
    /** Listener of `sms.received`. */
    onReceived(event: WebhookEvent): void {
      if (!settings.enabled) return;
      const { from, body } = event.data;
      if (typeof from !== 'string' || typeof body !== 'string') return;
      const keyword = optOutKeyword(body);
      if (keyword === null || !applyKeyword(deps, keyword, from)) return;
      const text = answers[keyword];
      if (text === '') return;
      const to = deps.guard.allow(from, keyword);
      if (to === null) return;
      try {
        const idempotencyKey = `${keyword === 'opt_in' ? 'opt-in:' : 'opt-out:'}${event.id}`;
        const ctx = { origin: ORIGIN[keyword], sourceIp: OPT_OUT_SOURCE, idempotencyKey };
        const queued = deps.enqueue.accept({ to, message: text }, ctx);
        if (queued instanceof Promise) queued.catch(refused);
      } catch (err) {
        refused(err);
      }
    },
  };
}
