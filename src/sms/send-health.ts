// Send health, as diagnostics shows it: the last hand-off and how it went, the failures in a
// row, and the storage health's last failed write. A listener of `handoff.finished`.
import type { Reason } from '../store/message-record.js';
import type { FinishedHandoff } from './handoff.js';
import type { StorageError, StorageHealth } from './storage-health.js';

export interface SendHealth {
  lastHandoffAt: number | null;
  lastHandoffOk: boolean | null;
  lastFailureReason: Reason | null;
  lastFailureAt: number | null;
  consecutiveFailures: number;
  /** The last failed database write, cleared by the next successful one. */
  storageError: StorageError | null;
}

export function createSendHealth(storage: Pick<StorageHealth, 'error'>) {
  const handoffs: Omit<SendHealth, 'storageError'> = {
    lastHandoffAt: null,
    lastHandoffOk: null,
    lastFailureReason: null,
    lastFailureAt: null,
    consecutiveFailures: 0,
  };
  return {
    current: (): SendHealth => ({ ...handoffs, storageError: storage.error() }),
    /** Listener of `handoff.finished`. */
    handoffFinished({ result, at }: FinishedHandoff) {
      handoffs.lastHandoffAt = at;
      handoffs.lastHandoffOk = result.ok;
      if (result.ok) handoffs.consecutiveFailures = 0;
      else {
        handoffs.consecutiveFailures++;
        handoffs.lastFailureReason = result.reason;
        handoffs.lastFailureAt = at;
      }
    },
  };
}
