// SMSGate's send request as the queue's request: the text from textMessage or message (exactly
// one), phoneNumbers as the recipients, simNumber as the slot, scheduleAt as sendAt, ttl or
// validUntil as expiresAt, priority as it is. Refused (400), as SMSGate's app refuses them or
// because Termux:API cannot: a data message, an encrypted one, ttl with validUntil, a scheduleAt
// not in the future, an expiry already past, another device's id. The queue's own refusals are
// reworded with SMSGate's field names.
import { gatewayError, GatewayError } from '../../core/errors.js';
import type { QueueRequest } from '../../sms/queue-request.js';
import type { SmsgateSend } from './message-schemas.js';

const refuse = (why: string) => gatewayError('invalid_request', 'problem', why);

/** The text: exactly one of textMessage and message, not empty. */
function textOf(body: SmsgateSend): string {
  const kinds = [body.textMessage, body.dataMessage, body.message].filter((k) => k != null).length;
  if (kinds > 1) throw refuse('give exactly one of textMessage, dataMessage or message, not several.');
  if (body.dataMessage != null) {
    throw refuse('dataMessage is not supported: Termux:API sends text messages only (use textMessage).');
  }
  const text = body.textMessage?.text ?? body.message;
  if (text == null) throw refuse('give exactly one of textMessage, dataMessage or message.');
  if (text === '') throw refuse('the text message is empty.');
  return text;
}

/** expiresAt from ttl (seconds from now) or validUntil; both: refused. */
function expiresAt(body: SmsgateSend, now: number): string | undefined {
  if (body.ttl != null && body.validUntil != null) throw refuse('fields conflict: ttl and validUntil (give one).');
  const at = body.validUntil != null ? Date.parse(body.validUntil) : body.ttl != null ? now + body.ttl * 1000 : null;
  if (at === null) return undefined;
  if (at <= now) throw refuse('message already expired (ttl or validUntil is not in the future).');
  return new Date(at).toISOString();
}

export function toQueueRequest(body: SmsgateSend, now: number, deviceId: string): QueueRequest {
  if (body.deviceId != null && body.deviceId !== deviceId) {
    throw refuse(`invalid device id: this phone is ${deviceId} (GET /device).`);
  }
  if (body.isEncrypted === true) {
    throw refuse('isEncrypted is not supported: the gateway cannot decrypt, and Termux:API sends the text as given.');
  }
  const message = textOf(body);
  if (body.scheduleAt != null && Date.parse(body.scheduleAt) <= now) throw refuse('scheduleAt must be in the future.');
  const expires = expiresAt(body, now);
  return {
    to: body.phoneNumbers,
    message,
    ...(body.simNumber != null ? { simSlot: body.simNumber } : {}),
    ...(body.scheduleAt != null ? { sendAt: body.scheduleAt } : {}),
    ...(expires !== undefined ? { expiresAt: expires } : {}),
    ...(body.priority != null ? { priority: body.priority } : {}),
  };
}

const FIELD_NAMES: [RegExp, string][] = [
  [/body\.to\b/g, 'body.phoneNumbers'],
  [/body\.message\b/g, 'body.textMessage.text'],
  [/\bsimSlot\b/g, 'simNumber'],
  [/\bsendAt\b/g, 'scheduleAt'],
  [/\bexpiresAt\b/g, 'validUntil'],
];

/** A refusal of the queue's, worded with SMSGate's field names (other errors as they are). */
export function withSmsgateNames(err: unknown): unknown {
  if (!(err instanceof GatewayError) || (err.code !== 'invalid_request' && err.code !== 'message_too_long')) {
    return err;
  }
  const message = FIELD_NAMES.reduce((text, [from, to]) => text.replace(from, to), err.message);
  return new GatewayError(err.code, message, err.extra);
}
