// The project's errors: the codes a caller can get, the error envelope, and GatewayError,
// a refusal with a code, a message that says what to do and an optional retry hint, built
// by gatewayError from the code's texts (core/error-messages.ts). No transport here:
// http/error-status.ts gives each code its HTTP status, MQTT answers the envelope on its
// errors topic. StartupError: a start that cannot go on.
import { ERROR_MESSAGES } from './error-messages.js';

export const ERROR_CODES = [
  'invalid_request',
  'message_too_long',
  'not_found',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'send_rate_limited',
  'send_failed',
  'sms_disabled',
  'storage_unavailable',
  'sender_busy',
  'queue_full',
  'not_cancellable',
  'inbox_disabled',
  'too_many_webhooks',
  'webhook_from_environment',
  'retained_refused',
  'recipient_opted_out',
  'too_many_rules',
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  success: false;
  smsSent: false;
  error: { code: ErrorCode; message: string };
  /**
   * rate_limited, send_rate_limited, sender_busy, queue_full: whole seconds until a retry may succeed (same as
   * Retry-After).
   */
  retryAfterSeconds?: number;
  /** send_failed (and sender_busy after a restart): the message's id, to look it up in the history. */
  messageId?: string;
}

export interface ErrorExtra {
  retryAfterSeconds?: number;
  messageId?: string;
}

/** A refusal meant for the caller: a code and a message that says what to do. */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly extra: ErrorExtra;
  constructor(code: ErrorCode, message: string, extra: ErrorExtra = {}) {
    super(message);
    this.code = code;
    this.extra = extra;
  }

  get retryAfterSeconds(): number | undefined {
    return this.extra.retryAfterSeconds;
  }

  /** The same error with a retry hint or a message id added. */
  with(extra: ErrorExtra): GatewayError {
    return new GatewayError(this.code, this.message, { ...this.extra, ...extra });
  }
}

type MessageBuilder = (...args: never[]) => string;
/** Every code has its texts, and nothing else has any (checked here, at compile time). */
const MESSAGES_BY_CODE: { [C in ErrorCode]: Record<string, MessageBuilder> } & Record<
  Exclude<keyof typeof ERROR_MESSAGES, ErrorCode>,
  never
> = ERROR_MESSAGES;
type Messages = typeof ERROR_MESSAGES;
type ArgsOf<F> = F extends (...args: infer A) => string ? A : never;

/** The error for `code` with its text `text` (core/error-messages.ts), from the values that text needs. */
export function gatewayError<C extends ErrorCode, T extends keyof Messages[C] & string>(
  code: C,
  text: T,
  ...args: ArgsOf<Messages[C][T]>
): GatewayError {
  // The signature above ties args to the text; here the builder is called as the table holds it.
  const build = MESSAGES_BY_CODE[code][text] as (...values: unknown[]) => string;
  return new GatewayError(code, build(...args));
}

/** The error envelope, the same over HTTP and MQTT. */
export function errorBody(err: GatewayError): ErrorBody {
  return { success: false, smsSent: false, error: { code: err.code, message: err.message }, ...err.extra };
}

/**
 * A start that cannot go on (port taken, forced real mode without termux-sms-send, a database
 * that cannot be opened): the CLI prints its message as one line and exits 1.
 */
export class StartupError extends Error {
  override name = 'StartupError';
}
