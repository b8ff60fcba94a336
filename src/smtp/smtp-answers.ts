// The SMTP answers the intake gives, in one place: each refusal's reply code and words (the
// words say what to do), and the queue's refusals (core/errors.ts) as SMTP replies: a full
// queue or a database that cannot be written is 451 (the device retries later), sending
// switched off or a text the queue refuses is 554. Each refusal carries its metrics reason.
import { GatewayError } from '../core/errors.js';
import type { SmtpRefusal } from '../status/smtp-check.js';

/** The most bytes of one mail (1 MiB); a larger one is answered 552. */
export const MAIL_MAX_BYTES = 1024 * 1024;
/** The most recipients of one mail. */
export const MAIL_MAX_RECIPIENTS = 10;

/** An error smtp-server answers with its `responseCode`; `reason` names it for the counts. */
export interface SmtpRefusalError extends Error {
  responseCode: number;
  reason: SmtpRefusal;
}

export function refusal(responseCode: number, reason: SmtpRefusal, message: string): SmtpRefusalError {
  return Object.assign(new Error(message), { responseCode, reason });
}

export const isRefusal = (err: unknown): err is SmtpRefusalError =>
  err instanceof Error && 'reason' in err && 'responseCode' in err;

export const answers = {
  notLocal: () => refusal(554, 'not_local', 'sms-gateway takes mail from the local network only'),
  authMissing: () =>
    refusal(
      530,
      'auth_missing',
      'Authentication required: AUTH PLAIN or LOGIN with any user name and the API key as password',
    ),
  authFailed: () => refusal(535, 'auth_failed', "Authentication failed: the password must be the gateway's API key"),
  invalidRecipient: (reason: string) => refusal(550, 'recipient_invalid', reason),
  optedOut: () => refusal(550, 'recipient_opted_out', 'recipient opted out'),
  tooManyRecipients: () =>
    refusal(452, 'too_many_recipients', `Too many recipients: at most ${MAIL_MAX_RECIPIENTS} per mail`),
  tooLarge: () => refusal(552, 'too_large', `Message too large: at most ${MAIL_MAX_BYTES} bytes (1 MB)`),
  noText: () => refusal(554, 'no_text', 'The mail has neither a subject nor a text to send'),
};

/** The queue's refusal (or any failure) of a mail as the SMTP reply. */
export function queueRefusal(err: unknown): SmtpRefusalError {
  if (isRefusal(err)) return err;
  if (err instanceof GatewayError) {
    if (err.code === 'queue_full') return refusal(451, 'queue_full', `Queue full, try again later: ${err.message}`);
    if (err.code === 'storage_unavailable') return refusal(451, 'storage_unavailable', err.message);
    if (err.code === 'sms_disabled') return refusal(554, 'sms_disabled', err.message);
    return refusal(554, 'no_text', err.message);
  }
  return refusal(451, 'storage_unavailable', 'The mail could not be queued; try again later');
}
