// Synchronous sends waiting in memory for the lane's next slot, each for at most
// SYNC_SLOT_WAIT_MS: a send whose slot does not come in time is answered `busy` (nothing
// recorded, nothing sent), one whose recipient opted out while it waited `opted_out` (the
// lane asks when its slot comes), and a stopping lane answers every waiter `stopping`.
import type { Clock, Timer } from '../core/clock.js';
import type { NewMessage } from '../store/messages.js';
import type { FinishedHandoff } from './handoff.js';

/** How long a synchronous send may wait for its slot (the answer then comes within the send timeout + this). */
export const SYNC_SLOT_WAIT_MS = 5_000;

export interface SyncJob {
  row: NewMessage;
}

export type SyncOutcome =
  | { started: false; why: 'busy' | 'stopping' | 'opted_out' }
  | { started: false; why: 'storage'; error: unknown }
  | { started: true; handed: FinishedHandoff };

interface Waiter {
  job: SyncJob;
  resolve(o: SyncOutcome): void;
  timer: Timer;
}

/** Synchronous sends waiting in memory for their slot, each for at most SYNC_SLOT_WAIT_MS. */
export function syncWaiters(clock: Clock) {
  const list: Waiter[] = [];
  return {
    /** Waits; answers `busy` when no slot came within SYNC_SLOT_WAIT_MS. */
    add(job: SyncJob): Promise<SyncOutcome> {
      return new Promise<SyncOutcome>((resolve) => {
        const waiter: Waiter = {
          job,
          resolve,
          timer: clock.setTimer(() => {
            const i = list.indexOf(waiter);
            if (i >= 0) {
              list.splice(i, 1);
              resolve({ started: false, why: 'busy' });
            }
          }, SYNC_SLOT_WAIT_MS),
        };
        list.push(waiter);
      });
    },
    first: () => list[0],
    /** The first waiter leaves the list (its slot came): its timeout no longer applies. */
    take(): Waiter | undefined {
      const w = list.shift();
      w?.timer.cancel();
      return w;
    },
    /** Every waiter is answered `stopping`. */
    refuseAll() {
      for (const w of list.splice(0)) {
        w.timer.cancel();
        w.resolve({ started: false, why: 'stopping' });
      }
    },
    segments: () => list.reduce((s, w) => s + w.job.row.segments, 0),
  };
}

export type SyncWaiters = ReturnType<typeof syncWaiters>;
