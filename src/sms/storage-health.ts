// Storage health: the last database write that failed, as diagnostics shows it. Every
// write the store makes is reported to it (store/write-watch.ts: the API's, the lane's,
// the settler's, webhook delivery's and the inbox's alike), and the send and queue paths
// report theirs too. A failure shows at once; a success clears the error once no write
// waits for the disk any more, and first lets whoever holds writes back (the settler's
// outcomes that could not be written) try them again.
// A gateway with no traffic writes nothing, so while a write has failed (and only then: no
// timer while healthy) the disk is tried every PROBE_MS with one small write of its own;
// the error clears at the first one it takes, with or without traffic.
import type { Clock, Timer } from '../core/clock.js';
import type { WriteWatcher } from '../store/write-watch.js';

export interface StorageError {
  at: number;
  code: string;
}

/** How often the disk is tried while a write has failed. */
export const PROBE_MS = 10_000;

/** Tries `write` every PROBE_MS while `failing()`; no timer otherwise. */
function diskProbe(clock: Clock, write: (() => void) | undefined, failing: () => boolean) {
  let timer: Timer | undefined;
  let stopped = false;
  const arm = () => {
    if (write && !timer && !stopped && failing()) timer = clock.setTimer(probe, PROBE_MS);
  };
  function probe() {
    timer = undefined;
    if (!failing()) return;
    try {
      write?.();
    } catch {
      // the store reported the refusal; tried again after PROBE_MS
    }
    queueMicrotask(arm); // after the success's own microtask (writes.succeeded)
  }
  return {
    arm,
    start() {
      stopped = false;
      arm();
    },
    stop() {
      stopped = true;
      timer?.cancel();
      timer = undefined;
    },
  };
}

/** probeWrite: one small write of the gateway's own, reported by the store like every write. */
export function createStorageHealth(clock: Clock, probeWrite?: () => void) {
  let error: StorageError | null = null;
  const probe = diskProbe(clock, probeWrite, () => error !== null);
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
    probe.arm();
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
    /** Probes again while a write has failed (the gateway starts). */
    start: () => probe.start(),
    /** No more probes (the gateway stops). */
    stop: () => probe.stop(),
  };
}

export type StorageHealth = ReturnType<typeof createStorageHealth>;
