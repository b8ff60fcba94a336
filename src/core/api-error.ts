// Errors meant for the client, with the project's codes. Plain data, no HTTP framework:
// the send service throws them, the root error handler (http/errors.ts) sends them.
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
  'internal_error',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorBody {
  success: false;
  smsSent: false;
  error: { code: ErrorCode; message: string };
  /** 429 and 503 (sender_busy, queue_full): whole seconds until a retry may succeed (same as Retry-After). */
  retryAfterSeconds?: number;
  /** 502: the failed message's id, to look it up in the history. */
  messageId?: string;
}

export interface ErrorExtra {
  retryAfterSeconds?: number;
  messageId?: string;
}

/** An error meant for the client: status, code and a message that says what to do. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: ErrorExtra = {},
  ) {
    super(message);
  }

  get retryAfterSeconds(): number | undefined {
    return this.extra.retryAfterSeconds;
  }

  body(): ErrorBody {
    return { success: false, smsSent: false, error: { code: this.code, message: this.message }, ...this.extra };
  }
}
