// The opt-out part of the configuration (docs/receiving.md, opt-out): whether keywords
// change the list (SMS_GATEWAY_OPT_OUT) and the texts of the automatic answers. A reply
// variable left unset gets the English default; set to an empty value, no answer is sent.
import * as z from 'zod';

export const DEFAULT_OPT_OUT_REPLY =
  'You are unsubscribed and will get no more messages from this number. Reply START to subscribe again.';
export const DEFAULT_OPT_IN_REPLY = 'You are subscribed again. Reply STOP to unsubscribe.';

export interface OptOutSettings {
  /** SMS_GATEWAY_OPT_OUT: received STOP/START change the list (the list is honoured either way). */
  enabled: boolean;
  /** '' = no answer. */
  optOutReply: string;
  optInReply: string;
  /** SMS_GATEWAY_HELP_REPLY; '' (the default) = HELP and INFO are not answered. */
  helpReply: string;
}

const text = z
  .string()
  .max(480, 'must be at most 480 characters')
  .transform((s) => s.trim());

/** An answer's text: unset gets `fallback`; empty (or only spaces) means none. */
export const replyText = (fallback: string) => text.optional().transform((s) => s ?? fallback);

/** An answer without a default text: unset or empty means none (undefined here, '' in the settings). */
export const optionalReplyText = text.optional();
