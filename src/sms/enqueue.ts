// The queued path: POST /api/messages accepts 1 to 100 recipients, an optional sendAt and
// expiresAt, validates every part exactly as the send path does (any invalid part refuses
// the whole request), commits one record per recipient in one transaction (with the outcome,
// for Idempotency-Key replays) and announces `message.queued`: the lane paces them; the
// request is accepted at once. A recipient on the opt-out list is recorded as failed with
// reason opted_out in the same transaction (never handed off, billed 0, an sms.failed
// event: sms/opt-out-intake.ts); the others are queued. DELETE /api/messages/:id cancels a message whose hand-off
// has not started.
import type { Logger } from 'pino';
import { gatewayError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { MessageRecord } from '../store/message-record.js';
import { toMessageRecord, type MessageRow, type MessageStore, type NewMessage } from '../store/messages.js';
import { QUEUE_LIMIT, type QueueStore } from '../store/queue.js';
import { createIdempotency, storedKey } from './idempotency.js';
import type { Emitter } from '../core/dispatcher.js';
import type { SendEvents } from './send-events.js';
import type { StorageHealth } from './storage-health.js';
import { isStorageUnavailable } from '../store/database.js';
import { storedOutcome, type AcceptedOutcome, type QueueOutcome } from './outcomes.js';
import { knownSlots, slotsAsKnown, type IntakeContext, type KnownSlots, type SimSlots } from './validation.js';
import { queuedRows, requestHash, times, validRecipients, type QueueRequest } from './queue-request.js';
import { failOptedOut, type OptOutCheck } from './opt-out-intake.js';

/** How long a caller refused with queue_full is asked to wait. */
const QUEUE_FULL_RETRY_S = 60;

export interface EnqueueDeps extends SimSlots {
  store: Pick<MessageStore, 'insertBatch' | 'byIdempotencyKey' | 'cancel' | 'get' | 'settle'>;
  queue: Pick<QueueStore, 'summary'>;
  events: Emitter<Pick<SendEvents, 'message.queued'>>;
  storage: Pick<StorageHealth, 'failed' | 'succeeded'>;
  clock: Clock;
  runtime: RuntimeInfo;
  calendar: () => Calendar;
  logger?: Logger | undefined;
  /** The opt-out list: a listed recipient is recorded as failed/opted_out, never queued. */
  optOuts?: OptOutCheck | undefined;
}

/** What else a door writes in the transaction that queues its records (SMSGate's message id for them). */
export type AlongsideWrite = (rows: readonly MessageRow[]) => void;

/**
 * The records, committed in one transaction with the outcome (stored on the first) and the
 * door's own write, or in the caller's (an automatic answer in the inbox's): `message.queued`
 * is announced once the outermost one committed.
 */
function commit(deps: EnqueueDeps, rows: NewMessage[], alongside?: AlongsideWrite): AcceptedOutcome {
  let outcome: AcceptedOutcome | undefined;
  const committed = () => deps.events.emit('message.queued', { ids: rows.map((r) => r.id) });
  try {
    const answer = (inserted: MessageRow[]) => {
      alongside?.(inserted);
      const stored = failOptedOut(deps, inserted);
      outcome = { kind: 'accepted', records: stored.map(toMessageRecord) };
      return { status: null, body: outcome }; // stored as the outcome (see outcomes.ts)
    };
    deps.store.insertBatch(rows, answer, committed);
    deps.storage.succeeded();
  } catch (err) {
    if (!isStorageUnavailable(err)) throw err;
    deps.storage.failed(err);
    throw gatewayError('storage_unavailable', 'database', 'queued');
  }
  return outcome!;
}

/** queued (hand-off not started) -> cancelled; not_found unknown; not_cancellable otherwise. */
function cancelQueued(deps: EnqueueDeps, id: string): MessageRecord {
  const row = deps.store.cancel(id, deps.clock.now());
  if (row) {
    deps.logger?.info({ id }, 'queued message cancelled');
    return toMessageRecord(row);
  }
  const current = deps.store.get(id);
  if (!current) throw gatewayError('not_found', 'message', id);
  const why =
    current.status === 'queued'
      ? 'its hand-off to the phone has started'
      : current.status === 'cancelled'
        ? 'it is already cancelled'
        : `it is already ${current.status}`;
  throw gatewayError('not_cancellable', 'because', id, why);
}

export function createEnqueue(deps: EnqueueDeps) {
  const { clock, runtime, logger } = deps;
  const idempotency = createIdempotency<QueueOutcome>({
    store: deps.store,
    replay: (row: MessageRow) =>
      storedOutcome<QueueOutcome>(row) ?? { kind: 'accepted', records: [toMessageRecord(row)] },
  });

  /** queue_full (nothing queued) when `count` more messages would not fit the queue now. */
  const ensureRoom = (count: number): void => {
    const waiting = deps.queue.summary().count;
    if (waiting + count > QUEUE_LIMIT) {
      throw gatewayError('queue_full', 'waiting', waiting, QUEUE_LIMIT).with({ retryAfterSeconds: QUEUE_FULL_RETRY_S });
    }
  };

  const accept = (
    req: QueueRequest,
    slots: KnownSlots,
    ctx: IntakeContext,
    key: string | undefined,
    hash: string,
    alongside?: AlongsideWrite,
  ): AcceptedOutcome => {
    if (!runtime.smsEnabled) {
      throw gatewayError('sms_disabled', 'switchedOff');
    }
    const valid = validRecipients(req, slots);
    const now = clock.now();
    const { sendAt, expiresAt } = times(req, now);
    ensureRoom(valid.length);
    const at = { now, statsDay: deps.calendar().dayOf(now), sendAt, expiresAt };
    const rows = queuedRows(req, valid, ctx, at, { key, hash });
    const outcome = commit(deps, rows, alongside);
    logger?.info({ ids: rows.map((r) => r.id), segments: rows[0]?.segments, sendAt }, 'sms queued');
    return outcome;
  };

  return {
    /**
     * Queues the request; `ctx.origin` is the door (or automatic answer) it comes from; `alongside`
     * writes what the door keeps of the records in the same transaction.
     */
    accept(req: QueueRequest, ctx: IntakeContext, alongside?: AlongsideWrite): QueueOutcome | Promise<QueueOutcome> {
      const key = storedKey(ctx);
      const hash = requestHash(req);
      if (key !== undefined) {
        const earlier = idempotency.earlier(key, hash);
        if (earlier !== undefined) return earlier;
      }
      // The gateway's own messages (default slot) never wait; a request naming a later slot
      // waits for the phone's SIM count when it is not fresh (the key's repeats wait with it).
      if (req.simSlot === undefined || req.simSlot <= 1) {
        return accept(req, slotsAsKnown(deps), ctx, key, hash, alongside);
      }
      const outcome = knownSlots(req.simSlot, deps).then((slots) => accept(req, slots, ctx, key, hash, alongside));
      return key === undefined ? outcome : idempotency.first(key, hash, outcome);
    },
    /**
     * Refuses with queue_full when `count` more messages would not fit (a caller queueing several, one by one, all or
     * none).
     */
    ensureRoom,
    /** queued (hand-off not started) -> cancelled; not_found unknown; not_cancellable otherwise. */
    cancel: (id: string): MessageRecord => cancelQueued(deps, id),
  };
}

export type Enqueue = ReturnType<typeof createEnqueue>;
