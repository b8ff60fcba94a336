// The queue's request: its shape and limits, every recipient and time checked as the intake
// takes them, its hash for Idempotency-Key replays, and the records it becomes (sms/enqueue.ts).
import { gatewayError, GatewayError } from '../core/errors.js';
import type { NewMessage } from '../store/messages.js';
import type { Tags } from '../store/message-record.js';
import { hashOf } from './idempotency.js';
import { tagsHashFields } from './tags.js';
import { newMessage, validateSend, type IntakeContext, type KnownSlots, type ValidSend } from './validation.js';

export const MAX_RECIPIENTS = 100;
export const MAX_SCHEDULE_MS = 30 * 24 * 3600_000;

export interface QueueRequest {
  to: string | string[];
  message: string;
  simSlot?: number | undefined;
  /** ISO 8601 with a zone (checked by the route's schema). */
  sendAt?: string | undefined;
  expiresAt?: string | undefined;
  tags?: Tags | undefined;
  /** -128..127, default 0: among the due waiting messages, a higher priority is handed off first. */
  priority?: number | undefined;
}

/** Every recipient validated as on the send path (errors name body.to[i]); no number twice. */
export function validRecipients(req: QueueRequest, sims: KnownSlots): { to: string; v: ValidSend }[] {
  const recipients = Array.isArray(req.to) ? req.to : [req.to];
  const seen = new Map<string, number>();
  return recipients.map((to, i) => {
    const where = Array.isArray(req.to) ? `body.to[${i}]` : 'body.to';
    let v;
    try {
      v = validateSend({ to, message: req.message, simSlot: req.simSlot }, sims);
    } catch (err) {
      if (err instanceof GatewayError)
        throw new GatewayError(err.code, err.message.replace('body.to', where), err.extra);
      throw err;
    }
    const twin = seen.get(v.number);
    if (twin !== undefined) throw gatewayError('invalid_request', 'sameRecipient', where, twin);
    seen.set(v.number, i);
    return { to, v };
  });
}

/** sendAt (at most 30 days ahead) and expiresAt (later than sendAt, or now), as epoch ms. */
export function times(req: QueueRequest, now: number) {
  const sendAt = req.sendAt === undefined ? null : Date.parse(req.sendAt);
  const expiresAt = req.expiresAt === undefined ? null : Date.parse(req.expiresAt);
  if (sendAt !== null && sendAt - now > MAX_SCHEDULE_MS) {
    throw gatewayError('invalid_request', 'sendAtTooFar');
  }
  if (expiresAt !== null && expiresAt <= Math.max(sendAt ?? now, now)) {
    throw gatewayError('invalid_request', 'expiresTooEarly', sendAt !== null && sendAt > now ? 'sendAt' : 'now');
  }
  return { sendAt, expiresAt };
}

/** The request's hash, as an Idempotency-Key's replay compares it. */
export function requestHash(req: QueueRequest): string {
  return hashOf([
    'queue',
    req.to,
    req.message,
    req.simSlot ?? null,
    req.sendAt ?? null,
    req.expiresAt ?? null,
    ...tagsHashFields(req.tags),
    // Only when set: the hashes stored before priority existed stay valid.
    ...(req.priority ? ['priority', req.priority] : []),
  ]);
}

/** When the records are made and due: now, its stats day, sendAt and expiresAt (epoch ms or null). */
export interface QueueTimes {
  now: number;
  statsDay: string;
  sendAt: number | null;
  expiresAt: number | null;
}

/** One queued record per recipient; the first carries the Idempotency-Key and the request's hash. */
export function queuedRows(
  req: QueueRequest,
  valid: { to: string; v: ValidSend }[],
  ctx: IntakeContext,
  at: QueueTimes,
  replay: { key: string | undefined; hash: string },
): NewMessage[] {
  const { key, hash } = replay;
  return valid.map(({ to, v }, i) => ({
    ...newMessage(v, {
      to,
      message: req.message,
      sourceIp: ctx.sourceIp,
      origin: ctx.origin,
      now: at.now,
      statsDay: at.statsDay,
      idempotencyKey: i === 0 ? (key ?? null) : null,
      requestHash: i === 0 && key ? hash : null,
      tags: req.tags,
    }),
    via: 'queue' as const,
    sendAt: at.sendAt,
    expiresAt: at.expiresAt,
    priority: req.priority ?? 0,
  }));
}
