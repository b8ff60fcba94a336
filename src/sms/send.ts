// The synchronous send (POST /api/sms/send): an Idempotency-Key replay first, then
// sms_disabled, validation, the opt-out list (recipient_opted_out), the request spacing (1 s between accepted requests)
// and the
// shared 60-segment window (send_rate_limited), then the message waits for the lane's next
// slot: it is recorded and handed off there, and the outcome is handed off or failed. No
// slot within the bound: sender_busy, nothing recorded, nothing consumed; its recipient on the
// opt-out list when the slot comes (it texted STOP meanwhile): recipient_opted_out, the same.
// Never a second hand-off.
import type { Logger } from 'pino';
import { gatewayError, type GatewayError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import { isStorageUnavailable } from '../store/database.js';
import type { MessageRow, MessageStore } from '../store/messages.js';
import { createIdempotency, storedKey, requestHash } from './idempotency.js';
import { RECOVERY_WINDOW_MS } from './confirmation.js';
import type { Lane } from './lane.js';
import { SYNC_SLOT_WAIT_MS, type SyncOutcome } from './sync-waiters.js';
import { failedOutcome, handedOffOutcome, storedOutcome, type SendOutcome } from './outcomes.js';
import { BUDGET_SEGMENTS, SPACING_MS, type Pacing } from './pacing.js';
import type { Settler } from './settle.js';
import type { StorageHealth } from './storage-health.js';
import {
  knownSlots,
  newMessage,
  validateSend,
  type IntakeContext,
  type SendRequest,
  type SimSlots,
} from './validation.js';
import type { OptOutCheck } from './opt-out-intake.js';

export type { SendOutcome } from './outcomes.js';
export type { SendRequest } from './validation.js';

export interface SendServiceDeps extends SimSlots {
  store: Pick<MessageStore, 'byIdempotencyKey'>;
  lane: Pick<Lane, 'submit' | 'pendingSyncSegments'>;
  pacing: Pick<Pacing, 'budgetWaitMs'>;
  settler: Pick<Settler, 'outcomeOf' | 'unwrittenOutcome'>;
  storage: Pick<StorageHealth, 'failed' | 'succeeded'>;
  clock: Clock;
  runtime: RuntimeInfo;
  calendar: () => Calendar;
  logger?: Logger | undefined;
  /** The opt-out list: a listed recipient is refused (recipient_opted_out), nothing recorded. */
  optOuts?: OptOutCheck | undefined;
}

const waitSeconds = (waitMs: number) => Math.max(1, Math.ceil(waitMs / 1000));

/** The outcome not yet written, a stored one, or one rebuilt from the record (a 0.1 row). */
function replayOf(deps: SendServiceDeps, row: MessageRow): SendOutcome {
  const unwritten = deps.settler.unwrittenOutcome(row.id);
  if (unwritten) return unwritten;
  const stored = storedOutcome<SendOutcome>(row);
  if (stored) return stored;
  if (row.handedOffAt !== null) return handedOffOutcome(row, deps.runtime.mode);
  if (row.status === 'queued') {
    // Its hand-off was interrupted by a restart; the phone's sent box is being read.
    const seconds = Math.ceil(RECOVERY_WINDOW_MS / 1000);
    throw gatewayError('sender_busy', 'restarted', seconds).with({ retryAfterSeconds: seconds, messageId: row.id });
  }
  return failedOutcome(row, row.reason ?? 'interrupted');
}

/**
 * Why a synchronous send did not start: the disk refused it, its recipient opted out while it waited, or no slot came
 * in time.
 */
function notStarted(
  deps: SendServiceDeps,
  outcome: Extract<SyncOutcome, { started: false }>,
  segments: number,
  number: string,
): GatewayError {
  if (outcome.why === 'opted_out') return gatewayError('recipient_opted_out', 'listed', number);
  if (outcome.why === 'storage') {
    if (!isStorageUnavailable(outcome.error)) throw outcome.error;
    deps.storage.failed(outcome.error);
    return gatewayError('storage_unavailable', 'database', 'sent');
  }
  const seconds = Math.ceil(SYNC_SLOT_WAIT_MS / 1000);
  deps.logger?.warn({ segments }, 'synchronous send refused: no hand-off slot in time');
  return gatewayError('sender_busy', 'noSlot', seconds).with({ retryAfterSeconds: seconds });
}

export function createSendService(deps: SendServiceDeps) {
  const { clock, runtime, logger } = deps;
  /** Monotonic time of the last accepted synchronous request (the request spacing). */
  let lastAccepted: number | undefined;

  const idempotency = createIdempotency<SendOutcome>({ store: deps.store, replay: (row) => replayOf(deps, row) });

  type Key = string | undefined;
  const accept = async (req: SendRequest, ctx: IntakeContext, key: Key, hash: string): Promise<SendOutcome> => {
    if (!runtime.smsEnabled) {
      throw gatewayError('sms_disabled', 'switchedOff');
    }
    const v = validateSend(req, await knownSlots(req.simSlot, deps));
    if (deps.optOuts?.blocks(v.number, ctx.origin)) throw gatewayError('recipient_opted_out', 'listed', v.number);
    const mono = clock.monotonicMs();
    if (lastAccepted !== undefined && mono - lastAccepted < SPACING_MS) {
      const seconds = waitSeconds(lastAccepted + SPACING_MS - mono);
      throw gatewayError('send_rate_limited', 'spacing', seconds).with({ retryAfterSeconds: seconds });
    }
    const budgetWait = deps.pacing.budgetWaitMs(v.seg.segments + deps.lane.pendingSyncSegments());
    if (budgetWait > 0) {
      const seconds = waitSeconds(budgetWait);
      throw gatewayError('send_rate_limited', 'budget', BUDGET_SEGMENTS, v.seg.segments, seconds).with({
        retryAfterSeconds: seconds,
      });
    }
    const previous = lastAccepted;
    lastAccepted = mono;
    const now = clock.now();
    const row = newMessage(v, {
      to: req.to,
      message: req.message,
      sourceIp: ctx.sourceIp,
      origin: ctx.origin,
      now,
      statsDay: deps.calendar().dayOf(now),
      idempotencyKey: key ?? null,
      requestHash: key ? hash : null,
      tags: req.tags,
    });
    const id = row.id;
    const outcome = await deps.lane.submit({ row });
    if (!outcome.started) {
      lastAccepted = previous; // a refused request consumes nothing
      throw notStarted(deps, outcome, v.seg.segments, v.number);
    }
    deps.storage.succeeded();
    logger?.info({ id, segments: v.seg.segments, encoding: v.seg.encoding, simSlot: v.simSlot }, 'sms accepted');
    // internal_error, details only in the log
    if (outcome.handed.error !== undefined)
      throw outcome.handed.error instanceof Error
        ? outcome.handed.error
        : new Error('the sender failed', { cause: outcome.handed.error });
    return deps.settler.outcomeOf(outcome.handed);
  };

  return {
    async send(req: SendRequest, ctx: IntakeContext): Promise<SendOutcome> {
      const key = storedKey(ctx);
      const hash = requestHash(req);
      // A known key gets its first answer before any check that may have changed since.
      if (key !== undefined) {
        const earlier = idempotency.earlier(key, hash);
        if (earlier !== undefined) return earlier;
      }
      const outcome = accept(req, ctx, key, hash);
      return key === undefined ? outcome : idempotency.first(key, hash, outcome);
    },
  };
}

export type SendService = ReturnType<typeof createSendService>;
