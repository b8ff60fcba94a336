// Each error code's HTTP status, defined once (the root error handler, the routes' own
// answers and the OpenAPI document all read it), and the answer an error becomes.
import { errorBody, type ErrorBody, type ErrorCode, type GatewayError } from '../core/errors.js';

export const STATUS_OF = {
  invalid_request: 400,
  message_too_long: 400,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  send_rate_limited: 429,
  send_failed: 502,
  sms_disabled: 503,
  storage_unavailable: 503,
  sender_busy: 503,
  queue_full: 503,
  not_cancellable: 409,
  inbox_disabled: 503,
  too_many_webhooks: 409,
  webhook_from_environment: 409,
  // MQTT only (a send message with the retain flag, answered on the errors topic); never an
  // HTTP answer. 400: like invalid_request, it is refused for what the request is (the
  // sender set the flag) and the same request without it is taken.
  retained_refused: 400,
  recipient_opted_out: 409,
  too_many_rules: 409,
  internal_error: 500,
} as const satisfies Record<ErrorCode, number>;

export type ErrorStatus = (typeof STATUS_OF)[ErrorCode];

/** An error as an HTTP answer: its status, the envelope, and the Retry-After seconds if any. */
export function errorAnswer(err: GatewayError): {
  status: ErrorStatus;
  body: ErrorBody;
  retryAfterSeconds: number | undefined;
} {
  return { status: STATUS_OF[err.code], body: errorBody(err), retryAfterSeconds: err.retryAfterSeconds };
}
