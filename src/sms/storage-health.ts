// Storage health: the last database write that failed, as diagnostics shows it. The send
// and queue paths report each write; a success clears the error once no write waits for the
// disk any more, and first lets whoever holds writes back (the settler's outcomes that could
// not be written) try them again.
import type { Clock } from '../core/clock.js';

export interface StorageError {
  at: number;
  code: string;
}

export function createStorageHealth(clock: Clock) {
  let error: StorageError | null = null;
  /** Tries the writes that wait again; returns how many still wait. */
  let retryWaiting: () => number = () => 0;
  return {
    error: (): StorageError | null => error,
    /** A write failed (the database refused it). */
    failed(err: unknown) {
      const code = (err as { code?: unknown }).code;
      error = { at: clock.now(), code: typeof code === 'string' || typeof code === 'number' ? String(code) : 'unknown' };
    },
    /** A write succeeded: the writes that wait are tried again; the error clears once none waits. */
    succeeded() {
      if (retryWaiting() === 0) error = null;
    },
    /** Everything that waited is written (the settler's own retry). */
    caughtUp() {
      error = null;
    },
    /** Who holds writes back until the disk allows: tried again at each success. */
    holdWritesWith(retry: () => number) {
      retryWaiting = retry;
    },
  };
}

export type StorageHealth = ReturnType<typeof createStorageHealth>;
