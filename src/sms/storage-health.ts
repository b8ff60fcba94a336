// Storage health: the last database write that failed, as diagnostics shows it. Every
// write the store makes is reported to it (store/write-watch.ts: the API's, the lane's,
// the settler's, webhook delivery's and the inbox's alike), and the send and queue paths
// report theirs too. A failure shows at once; a success clears the error once no write
// waits for the disk any more, and first lets whoever holds writes back (the settler's
// outcomes that could not be written) try them again.
import type { Clock } from '../core/clock.js';
import type { WriteWatcher } from '../store/write-watch.js';

export interface StorageError {
  at: number;
  code: string;
}

export function createStorageHealth(clock: Clock) {
  let error: StorageError | null = null;
  /** Tries the writes that wait again; returns how many still wait. */
  let retryWaiting: () => number = () => 0;
  /** Failures so far, and how many there were at the last write the store committed. */
  let failures = 0;
  let failuresAtLastWrite = 0;
  let clearQueued = false;

  const failed = (err: unknown) => {
    failures++;
    const code = (err as { code?: unknown }).code;
    error = { at: clock.now(), code: typeof code === 'string' || typeof code === 'number' ? String(code) : 'unknown' };
  };
  const succeeded = () => {
    if (retryWaiting() === 0) error = null;
  };
  /**
   * The store's own reports. A committed write clears the error a microtask later: the
   * writes that wait are then tried again outside the statement that reported, and a
   * failure reported after it (in the same turn) keeps the error.
   */
  const writes: WriteWatcher = {
    failed,
    succeeded() {
      if (error === null) return;
      failuresAtLastWrite = failures;
      if (clearQueued) return;
      clearQueued = true;
      queueMicrotask(() => {
        clearQueued = false;
        if (failuresAtLastWrite === failures) succeeded();
      });
    },
  };

  return {
    error: (): StorageError | null => error,
    /** A write failed (the database refused it). */
    failed,
    /** A write succeeded: the writes that wait are tried again; the error clears once none waits. */
    succeeded,
    /** Everything that waited is written (the settler's own retry). */
    caughtUp() {
      error = null;
    },
    /** Who holds writes back until the disk allows: tried again at each success. */
    holdWritesWith(retry: () => number) {
      retryWaiting = retry;
    },
    /** What the store tells of every write (watchWrites in store/write-watch.ts). */
    writes,
  };
}

export type StorageHealth = ReturnType<typeof createStorageHealth>;
