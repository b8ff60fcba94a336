// Gives memory back once the gateway is quiet again, as V8's memory reducer does under
// --optimize-for-size, without that flag's CPU cost on every request: after work (a start,
// connections, requests), once nothing happened for TRIM_QUIET_MS, one memory-reducing full
// collection (V8's "last resort" GC: compacts the old generation, shrinks the young one,
// returns emptied pages to the system), if V8's heap grew by TRIM_MIN_GROWTH_BYTES since the
// last one (a Prometheus scrape every 15 s must not buy a full collection each time). It needs
// `gc`, which only --expose-gc provides (the launcher sets it for `start`); without it this
// does nothing. A timer exists only while activity is recent: an idle gateway is never woken.
// Never while activity goes on (a poll more often than every 10 s keeps those few MB): with a
// 60 s longest wait, the collection (50-100 ms, longer under a flood) came mid-flood, and two
// of three CI runs lost a flood test's witness request to a reset.
import { getHeapStatistics } from 'node:v8';
import type { Clock, Timer } from './clock.js';

/** How long after the last activity the collection runs. */
export const TRIM_QUIET_MS = 10_000;
/** The growth of V8's committed heap since the last collection that makes one worth it. */
export const TRIM_MIN_GROWTH_BYTES = 2 * 1024 * 1024;

type GcOptions = { type: 'major'; execution: 'sync'; flavor: 'last-resort' };
export type Collect = (options: GcOptions) => void;

/** The `gc` function --expose-gc installs, if the process has it. */
export function exposedGc(): Collect | undefined {
  const gc = (globalThis as { gc?: unknown }).gc;
  return typeof gc === 'function' ? (gc as Collect) : undefined;
}

export interface MemoryTrim {
  /** Something happened: the collection waits until TRIM_QUIET_MS after the last such call. */
  touch(): void;
  stop(): void;
  hasTimer(): boolean;
  /** Collections run so far. */
  runs(): number;
}

export interface TrimOptions {
  collect?: Collect | undefined;
  /** V8's committed heap, bytes. */
  heapBytes?: () => number;
  quietMs?: number;
}

export function createMemoryTrim(clock: Clock, opts: TrimOptions = {}): MemoryTrim {
  const collect = 'collect' in opts ? opts.collect : exposedGc();
  const heapBytes = opts.heapBytes ?? (() => getHeapStatistics().total_heap_size);
  const quietMs = opts.quietMs ?? TRIM_QUIET_MS;
  /** The heap right after the last collection (none yet: the first one always runs). */
  let after: number | undefined;
  let last = 0;
  let timer: Timer | undefined;
  let stopped = false;
  let runs = 0;
  const fire = () => {
    timer = undefined;
    if (stopped || collect === undefined) return;
    const quietFor = clock.monotonicMs() - last;
    if (quietFor < quietMs) {
      timer = clock.setTimer(fire, quietMs - quietFor);
      return;
    }
    if (after !== undefined && heapBytes() < after + TRIM_MIN_GROWTH_BYTES) return;
    runs++;
    collect({ type: 'major', execution: 'sync', flavor: 'last-resort' });
    after = heapBytes();
  };
  return {
    touch() {
      if (stopped || collect === undefined) return;
      last = clock.monotonicMs();
      timer ??= clock.setTimer(fire, quietMs);
    },
    stop() {
      stopped = true;
      timer?.cancel();
      timer = undefined;
    },
    hasTimer: () => timer !== undefined,
    runs: () => runs,
  };
}
