// What the effects of a received SMS (received-effects.ts) share: the SMS as they see it, and
// queueing an automatic answer inside the transaction that stores the SMS. A refusal of the
// queue (full, SMS switched off) skips the answer and is logged; a storage fault is thrown on,
// so the whole transaction rolls back and the SMS, never marked seen, is acted on at the next
// poll: nothing is lost, and nothing is done twice.
import type { Logger } from 'pino';
import { GatewayError } from '../core/errors.js';
import type { Enqueue } from './enqueue.js';
import type { QueueRequest } from './queue-request.js';
import type { IntakeContext } from './validation.js';

/** A received SMS as its effects see it, inside the transaction that stores it. */
export interface ReceivedSms {
  /** The id of its sms.received event (its answers' Idempotency-Keys are made from it). */
  eventId: string;
  from: string | null;
  body: string;
}

/** True when the answer was queued (or was already: the same key); false when the queue refused it. */
type AnswerDeps = { enqueue: Pick<Enqueue, 'accept'>; logger?: Logger | undefined };

export function queueAnswer(deps: AnswerDeps, req: QueueRequest, ctx: IntakeContext): boolean {
  try {
    const outcome = deps.enqueue.accept(req, ctx);
    if (outcome instanceof Promise) throw new Error('an automatic answer was answered later');
    return outcome.kind === 'accepted';
  } catch (err) {
    if (!(err instanceof GatewayError) || err.code === 'storage_unavailable') throw err;
    deps.logger?.warn({ code: err.code, origin: ctx.origin }, 'an automatic answer was not queued');
    return false;
  }
}
