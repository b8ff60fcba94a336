// After a hand-off (either path): the record becomes sent or failed (or, in real mode,
// waits for the sent-box confirmation), the synchronous answer is stored for
// Idempotency-Key replays, and the send health that diagnostics shows is updated. A write
// that fails here never changes what happened: it is logged and shown as a storage error.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Reason } from '../store/message-record.js';
import type { MessageStore } from '../store/messages.js';
import type { Handed } from './lane.js';
import { failureOutcome, resultBody, type SendOutcome } from './outcomes.js';

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

export interface SettlerDeps {
  store: Pick<MessageStore, 'settle' | 'markHandedOff' | 'saveResponse'>;
  clock: Clock;
  runtime: RuntimeInfo;
  /** Sent-box confirmation (real mode): a handed-off message stays queued until it settles it. */
  confirmer?: { track(id: string): void } | undefined;
  logger?: Logger | undefined;
}

export function createSettler(deps: SettlerDeps) {
  const { store, clock, runtime, logger } = deps;
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

  /** The synchronous answer for a finished hand-off. */
  const outcomeOf = ({ row, result }: Handed): SendOutcome =>
    result.ok ? { statusCode: 200, body: resultBody(row, runtime.mode) } : failureOutcome(row, result.reason, result.detail);

  return {
    health: (): Readonly<SendHealth> => health,
    outcomeOf,
    storageFailed,
    storageOk() {
      health.storageError = null;
    },
    settle(h: Handed): void {
      const { row, result, at } = h;
      health.lastHandoffAt = at;
      health.lastHandoffOk = result.ok;
      if (result.ok) health.consecutiveFailures = 0;
      else {
        health.consecutiveFailures++;
        health.lastFailureReason = result.reason;
        health.lastFailureAt = at;
      }
      const confirmLater = result.ok && deps.confirmer !== undefined;
      try {
        if (confirmLater) store.markHandedOff(row.id, at);
        else {
          store.settle(row.id, {
            status: result.ok ? 'sent' : 'failed',
            reason: result.ok ? null : result.reason,
            billedSegments: result.ok && runtime.mode === 'real' ? row.segments : 0,
            at,
            handedOff: result.ok,
          });
        }
        if (row.via === 'sync') {
          const outcome = outcomeOf(h);
          store.saveResponse(row.id, outcome.statusCode, outcome.body);
        }
        if (confirmLater) deps.confirmer!.track(row.id);
      } catch (err) {
        // The hand-off happened (or failed) whatever the disk says: answer truthfully.
        storageFailed(err);
        logger?.error({ id: row.id, err }, 'could not record the hand-off result');
      }
      logger?.info({ id: row.id, via: row.via, reason: result.ok ? null : result.reason }, result.ok ? 'sms handed off' : 'sms hand-off failed');
    },
  };
}

export type Settler = ReturnType<typeof createSettler>;
