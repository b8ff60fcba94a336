// The send service, after the route: sms_disabled, validation, Idempotency-Key, budget
// and spacing, then: commit as queued -> one hand-off -> settle (or hand over to the
// sent-box confirmation). At most once: nothing here ever hands a message off twice.
import type { Logger } from 'pino';
import { ApiError } from '../core/api-error.js';
import type { Clock } from '../core/clock.js';
import { newMessageId } from '../core/ids.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import { isStorageUnavailable } from '../store/database.js';
import type { Encoding, Reason } from '../store/message-record.js';
import type { MessageRow, MessageStore } from '../store/messages.js';
import type { Dispatcher } from './dispatcher.js';
import { createIdempotency, requestHash, type SendOutcome } from './idempotency.js';
import { failureMessage } from './reasons.js';
import { BUDGET_SEGMENTS, type SendBudget } from './send-budget.js';
import type { HandoffResult } from './senders.js';
import { validateSend, type SendRequest, type ValidSend } from './validation.js';

export type { SendOutcome } from './idempotency.js';
export type { SendRequest } from './validation.js';

export interface SendResult {
  success: true;
  mode: RuntimeInfo['mode'];
  smsSent: true;
  messageId: string;
  status: 'queued';
  segments: number;
  simSlot: number;
  encoding: Encoding;
  warning?: string;
}

export interface SendServiceDeps {
  store: MessageStore;
  budget: SendBudget;
  dispatcher: Dispatcher;
  clock: Clock;
  runtime: RuntimeInfo;
  calendar: () => Calendar;
  defaultSim: number;
  /** SIM slots the phone reports (1-based slots 1..n are valid). */
  simCount: () => number;
  /** Sent-box confirmation (real mode): a handed-off message stays queued until it settles it. */
  confirmer?: { track(id: string): void } | undefined;
  logger?: Logger | undefined;
}

const STORAGE_MESSAGE =
  'The gateway cannot write its database (disk full or read-only?); nothing was sent. Free some space on the phone; the gateway recovers by itself.';

/** What diagnostics shows about sending. */
export interface SendHealth {
  lastHandoffAt: number | null;
  lastHandoffOk: boolean | null;
  lastFailureReason: Reason | null;
  lastFailureAt: number | null;
  consecutiveFailures: number;
  /** The last failed database write, cleared by the next successful one. */
  storageError: { at: number; code: string } | null;
}

export function createSendService(deps: SendServiceDeps) {
  const { store, budget, dispatcher, clock, runtime, logger } = deps;
  const health: SendHealth = {
    lastHandoffAt: null,
    lastHandoffOk: null,
    lastFailureReason: null,
    lastFailureAt: null,
    consecutiveFailures: 0,
    storageError: null,
  };
  const storageFailed = (err: unknown) => {
    health.storageError = { at: clock.now(), code: String((err as { code?: unknown }).code ?? 'unknown') };
  };

  const resultBody = (row: MessageRow): SendResult => {
    const body: SendResult = {
      success: true,
      mode: runtime.mode,
      smsSent: true,
      messageId: row.id,
      status: 'queued',
      segments: row.segments,
      simSlot: row.simSlot,
      encoding: row.encoding,
    };
    if (row.segments > 1) {
      body.warning = `Message is ${row.segments} segments long (${row.encoding}); it is sent as a multipart SMS and billed as ${row.segments}.`;
    }
    return body;
  };

  const failureOutcome = (row: MessageRow, reason: Reason, detail?: string): SendOutcome => ({
    statusCode: 502,
    body: new ApiError(502, 'send_failed', failureMessage(reason, detail), { messageId: row.id }).body(),
  });

  const idempotency = createIdempotency({
    store,
    /** The answer for a repeated Idempotency-Key: the stored one, or one rebuilt from the record. */
    replay(row) {
      if (row.responseStatus !== null && row.responseBody !== null) {
        return { statusCode: row.responseStatus, body: JSON.parse(row.responseBody) };
      }
      if (row.handedOffAt !== null) return { statusCode: 200, body: resultBody(row) };
      return failureOutcome(row, row.reason ?? 'interrupted');
    },
  });

  const accept = async (req: SendRequest, v: ValidSend, sourceIp: string, key: string | undefined, hash: string) => {
    const now = clock.now();
    const row: MessageRow = {
      id: newMessageId(now),
      to: req.to,
      sendTo: v.number,
      body: req.message,
      segments: v.seg.segments,
      billedSegments: 0,
      encoding: v.seg.encoding,
      simSlot: v.simSlot,
      status: 'queued',
      reason: null,
      sourceIp,
      createdAt: now,
      updatedAt: now,
      statsDay: deps.calendar().dayOf(now),
      handoffStartedAt: null,
      handedOffAt: null,
      idempotencyKey: key ?? null,
      requestHash: key ? hash : null,
      responseStatus: null,
      responseBody: null,
      smsStoreId: null,
    };
    try {
      store.insertQueued(row);
      health.storageError = null;
    } catch (err) {
      if (isStorageUnavailable(err)) {
        storageFailed(err);
        throw new ApiError(503, 'storage_unavailable', STORAGE_MESSAGE);
      }
      throw err;
    }
    budget.record(row.segments);
    logger?.info({ id: row.id, segments: row.segments, encoding: row.encoding, simSlot: row.simSlot }, 'sms accepted');

    let result: HandoffResult;
    try {
      result = await dispatcher.dispatch({
        handoff: { number: v.number, text: req.message, simSlot: v.simSlot },
        beforeHandoff: () => store.markHandoffStarted(row.id, clock.now()),
      });
    } catch (err) {
      // The start of the hand-off could not be recorded, so it did not happen.
      logger?.error({ id: row.id, err }, 'could not record the hand-off; message not sent');
      if (isStorageUnavailable(err)) {
        storageFailed(err);
        throw new ApiError(503, 'storage_unavailable', STORAGE_MESSAGE);
      }
      throw err;
    }

    const at = clock.now();
    health.lastHandoffAt = at;
    health.lastHandoffOk = result.ok;
    if (result.ok) health.consecutiveFailures = 0;
    else {
      health.consecutiveFailures++;
      health.lastFailureReason = result.reason;
      health.lastFailureAt = at;
    }
    const outcome: SendOutcome = result.ok ? { statusCode: 200, body: resultBody(row) } : failureOutcome(row, result.reason, result.detail);
    const settle = {
      status: result.ok ? ('sent' as const) : ('failed' as const),
      reason: result.ok ? null : result.reason,
      billedSegments: result.ok && runtime.mode === 'real' ? row.segments : 0,
      at,
      handedOff: result.ok,
    };
    const confirmLater = result.ok && deps.confirmer !== undefined;
    try {
      if (confirmLater) store.markHandedOff(row.id, at);
      else store.settle(row.id, settle);
      store.saveResponse(row.id, outcome.statusCode, outcome.body);
      if (confirmLater) deps.confirmer!.track(row.id);
    } catch (err) {
      // The hand-off happened (or failed) whatever the disk says: answer truthfully.
      storageFailed(err);
      logger?.error({ id: row.id, err }, 'could not record the hand-off result');
    }
    logger?.info({ id: row.id, reason: settle.reason }, result.ok ? 'sms handed off' : 'sms hand-off failed');
    return outcome;
  };

  return {
    health: (): Readonly<SendHealth> => health,
    async send(req: SendRequest, ctx: { sourceIp: string; idempotencyKey?: string | undefined }): Promise<SendOutcome> {
      if (!runtime.smsEnabled) {
        throw new ApiError(503, 'sms_disabled', 'Sending is switched off on this gateway (SMS_GATEWAY_SMS_ENABLED=false).');
      }
      const v = validateSend(req, deps);
      const key = ctx.idempotencyKey;
      const hash = requestHash(req);
      if (key !== undefined) {
        const earlier = idempotency.earlier(key, hash);
        if (earlier !== undefined) return earlier;
      }
      const fit = budget.check(v.seg.segments);
      if (!fit.ok) {
        const seconds = Math.max(1, Math.ceil(fit.retryAfterMs / 1000));
        throw new ApiError(
          429,
          'send_rate_limited',
          fit.because === 'spacing'
            ? `Sends must be at least 1 second apart; retry in ${seconds} s.`
            : `The send budget (${BUDGET_SEGMENTS} segments per minute) is used up; this ${v.seg.segments}-segment message fits in ${seconds} s.`,
          { retryAfterSeconds: seconds },
        );
      }
      const outcome = accept(req, v, ctx.sourceIp, key, hash);
      return key === undefined ? outcome : idempotency.first(key, hash, outcome);
    },
  };
}

export type SendService = ReturnType<typeof createSendService>;
