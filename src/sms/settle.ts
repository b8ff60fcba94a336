// After a hand-off (either path). Settling announces, in this order:
//   1. `handoff.finished` (send health, metrics), before anything is written;
//   2. the record: sent or failed, or in real mode handed off and tracked by the sent-box
//      confirmation. store.settle commits the status, its roll-up and the sms.sent /
//      sms.failed event in one transaction; after the commit the outbox announces it as
//      `message.settled` (webhook delivery, MQTT, metrics: events/domain-events.ts).
// The synchronous send's outcome is stored for Idempotency-Key replays. A write that fails
// here never changes what happened: the outcome is kept in memory, replays answer from it,
// and it is written as soon as the disk allows (at the next successful write, and tried
// every 30 s); storage health shows the failure until then.
import type { Logger } from 'pino';
import type { Clock, Timer } from '../core/clock.js';
import type { Emitter } from '../core/dispatcher.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { MessageStore } from '../store/messages.js';
import type { FinishedHandoff } from './handoff.js';
import { failedOutcome, handedOffOutcome, type SendOutcome } from './outcomes.js';
import type { SendEvents } from './send-events.js';
import type { StorageHealth } from './storage-health.js';

export interface SettlerDeps {
  store: Pick<MessageStore, 'settle' | 'markHandedOff' | 'saveResponse'>;
  clock: Clock;
  runtime: RuntimeInfo;
  events: Emitter<Pick<SendEvents, 'handoff.finished'>>;
  storage: StorageHealth;
  /** Sent-box confirmation (real mode): a handed-off message stays queued until it settles it. */
  confirmer?: { track(id: string): void } | undefined;
  logger?: Logger | undefined;
}

/** How often outcomes that could not be written are tried again. */
export const REWRITE_EVERY_MS = 30_000;

/** The synchronous send's outcome for a finished hand-off. */
export function outcomeOf({ row, result }: FinishedHandoff, mode: RuntimeInfo['mode']): SendOutcome {
  return result.ok ? handedOffOutcome(row, mode) : failedOutcome(row, result.reason, result.detail);
}

/**
 * Writes the record of a finished hand-off (and a synchronous send's outcome, for replays);
 * false when the disk refused (nothing changed then).
 */
function createWriter(deps: SettlerDeps) {
  const { store, runtime, logger } = deps;
  return (h: FinishedHandoff): boolean => {
    const { row, result, at } = h;
    const confirmLater = result.ok && deps.confirmer !== undefined;
    try {
      if (confirmLater) store.markHandedOff(row.id, at);
      else {
        // Commits the status with its event, announced as message.settled after the commit.
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
      deps.storage.failed(err);
      logger?.error(
        { id: row.id, err },
        'could not record the hand-off result; kept, and written when the disk allows',
      );
      return false;
    }
  };
}

export function createSettler(deps: SettlerDeps) {
  const { clock, runtime, logger, storage } = deps;
  /** Outcomes of hand-offs whose record could not be written yet, by message id. */
  const unwritten = new Map<string, FinishedHandoff>();
  let retry: Timer | undefined;
  const write = createWriter(deps);

  const api = {
    outcomeOf: (h: FinishedHandoff): SendOutcome => outcomeOf(h, runtime.mode),
    settle(h: FinishedHandoff): void {
      const { row, result } = h;
      deps.events.emit('handoff.finished', h);
      if (!write(h)) {
        unwritten.set(row.id, h);
        scheduleRetry();
      }
      logger?.info(
        { id: row.id, via: row.via, reason: result.ok ? null : result.reason },
        result.ok ? 'sms handed off' : 'sms hand-off failed',
      );
    },
    /** The outcome of a hand-off whose record is not written yet (for Idempotency-Key replays). */
    unwrittenOutcome(id: string): SendOutcome | undefined {
      const h = unwritten.get(id);
      return h ? outcomeOf(h, runtime.mode) : undefined;
    },
    /** Tries the unwritten outcomes again now; returns how many are still unwritten. */
    flush(): number {
      for (const [id, h] of unwritten) if (write(h)) unwritten.delete(id);
      if (unwritten.size === 0) storage.caughtUp();
      return unwritten.size;
    },
    stop() {
      retry?.cancel();
      retry = undefined;
    },
  };
  // Another write succeeded: the disk may take these again.
  storage.holdWritesWith(() => (unwritten.size > 0 ? api.flush() : 0));
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
