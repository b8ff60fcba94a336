// After a hand-off (either path): the record becomes sent or failed (or, in real mode,
// waits for the sent-box confirmation). Settling announces: store.settle commits the status,
// its roll-up and the sms.sent / sms.failed event in one transaction, and once it committed
// webhook delivery and MQTT hear of the event. The synchronous send's outcome is stored for
// Idempotency-Key replays, and the send health that diagnostics shows is updated. A write
// that fails here never changes what happened: the outcome is kept in memory, replays
// answer from it, and it is written as soon as the disk allows (tried every 30 s).
import type { Logger } from 'pino';
import type { Clock, Timer } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Reason } from '../store/message-record.js';
import type { MessageStore } from '../store/messages.js';
import type { Handed } from './lane.js';
import { handedOff, sendFailed, type SendOutcome } from './outcomes.js';

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

/** How often outcomes that could not be written are tried again. */
export const REWRITE_EVERY_MS = 30_000;

/** Send health as hand-offs and database writes report it. */
function createHealth(clock: Clock) {
  const health: SendHealth = {
    lastHandoffAt: null,
    lastHandoffOk: null,
    lastFailureReason: null,
    lastFailureAt: null,
    consecutiveFailures: 0,
    storageError: null,
  };
  return {
    health,
    handoff({ result, at }: Handed) {
      health.lastHandoffAt = at;
      health.lastHandoffOk = result.ok;
      if (result.ok) health.consecutiveFailures = 0;
      else {
        health.consecutiveFailures++;
        health.lastFailureReason = result.reason;
        health.lastFailureAt = at;
      }
    },
    storageFailed(err: unknown) {
      health.storageError = { at: clock.now(), code: String((err as { code?: unknown }).code ?? 'unknown') };
    },
  };
}

/** The synchronous send's outcome for a finished hand-off. */
export function outcomeOf({ row, result }: Handed, mode: RuntimeInfo['mode']): SendOutcome {
  return result.ok ? handedOff(row, mode) : sendFailed(row, result.reason, result.detail);
}

/**
 * Writes the record of a finished hand-off (and a synchronous send's outcome, for replays);
 * false when the disk refused (nothing changed then).
 */
function createWriter(deps: SettlerDeps, storageFailed: (err: unknown) => void) {
  const { store, runtime, logger } = deps;
  return (h: Handed): boolean => {
    const { row, result, at } = h;
    const confirmLater = result.ok && deps.confirmer !== undefined;
    try {
      if (confirmLater) store.markHandedOff(row.id, at);
      else {
        // Commits the status with its event; delivery and MQTT are told after the commit.
        store.settle(row.id, {
          status: result.ok ? 'sent' : 'failed',
          reason: result.ok ? null : result.reason,
          billedSegments: result.ok && runtime.mode === 'real' ? row.segments : 0,
          at,
          handedOff: result.ok,
        });
      }
      // Stored as the outcome (no status of its own): see outcomes.ts.
      if (row.via === 'sync') store.saveResponse(row.id, null, outcomeOf(h, runtime.mode));
      if (confirmLater) deps.confirmer!.track(row.id);
      return true;
    } catch (err) {
      // The hand-off happened (or failed) whatever the disk says: answer truthfully.
      storageFailed(err);
      logger?.error({ id: row.id, err }, 'could not record the hand-off result; kept, and written when the disk allows');
      return false;
    }
  };
}

export function createSettler(deps: SettlerDeps) {
  const { clock, runtime, logger } = deps;
  /** Outcomes of hand-offs whose record could not be written yet, by message id. */
  const unwritten = new Map<string, Handed>();
  let retry: Timer | undefined;
  const { health, handoff, storageFailed } = createHealth(clock);
  const write = createWriter(deps, storageFailed);

  const api = {
    health: (): Readonly<SendHealth> => health,
    outcomeOf: (h: Handed): SendOutcome => outcomeOf(h, runtime.mode),
    storageFailed,
    /** A write just succeeded: write what waits too, and clear the error once nothing does. */
    storageOk() {
      if (unwritten.size > 0) api.flush();
      if (unwritten.size === 0) health.storageError = null;
    },
    settle(h: Handed): void {
      const { row, result } = h;
      handoff(h);
      if (!write(h)) {
        unwritten.set(row.id, h);
        scheduleRetry();
      }
      logger?.info({ id: row.id, via: row.via, reason: result.ok ? null : result.reason }, result.ok ? 'sms handed off' : 'sms hand-off failed');
    },
    /** The outcome of a hand-off whose record is not written yet (for Idempotency-Key replays). */
    unwrittenOutcome(id: string): SendOutcome | undefined {
      const h = unwritten.get(id);
      return h ? outcomeOf(h, runtime.mode) : undefined;
    },
    /** Tries the unwritten outcomes again now; returns how many are still unwritten. */
    flush(): number {
      for (const [id, h] of unwritten) if (write(h)) unwritten.delete(id);
      if (unwritten.size === 0) health.storageError = null;
      return unwritten.size;
    },
    stop() {
      retry?.cancel();
      retry = undefined;
    },
  };
  return api;

  function scheduleRetry() {
    if (retry) return;
    retry = clock.setTimer(() => {
      retry = undefined;
      let left = unwritten.size;
      try {
        left = api.flush();
      } finally {
        if (left > 0) scheduleRetry();
      }
    }, REWRITE_EVERY_MS);
  }
}

export type Settler = ReturnType<typeof createSettler>;
