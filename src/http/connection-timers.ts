// The connection table's two timers (http/connection-table.ts), both on the injected clock's
// monotonic time and armed only while they have work: the sweep that closes connections idle
// or without complete headers for headersMs, and the grace's trim that brings the whole back
// to its ceiling graceMs after it went past it.
import type { Clock, Timer } from '../core/clock.js';
import type { Entry, Group } from './connection-tree.js';

/** Closes every connection idle or without headers for headersMs, by one timer armed only while one waits. */
export function createSweeper(headersMs: number, clock: Clock, close: (entry: Entry) => void) {
  /** Idle and headers connections in the order they entered that state: the sweep's queue. */
  const waiting = new Set<Entry>();
  let timer: Timer | undefined;
  function sweep(): void {
    timer = undefined;
    const now = clock.monotonicMs();
    for (const entry of waiting) {
      if (entry.since + headersMs > now) break;
      close(entry);
    }
    arm();
  }
  function arm(): void {
    if (timer || waiting.size === 0) return;
    const oldest = waiting.values().next().value!;
    timer = clock.setTimer(sweep, Math.max(0, oldest.since + headersMs - clock.monotonicMs()));
  }
  return {
    /** A connection that entered its idle or headers state (since set): swept headersMs after. */
    add(entry: Entry): void {
      waiting.add(entry);
      arm();
    },
    forget: (entry: Entry) => waiting.delete(entry),
    armed: () => timer !== undefined,
  };
}

/** The whole past its ceiling (within its grace): room is made graceMs later, and again while all are busy. */
export function createGrace(root: Group, graceMs: number, clock: Clock, evictFrom: (g: Group) => boolean) {
  let timer: Timer | undefined;
  function trim(): void {
    timer = undefined;
    while (root.count > root.ceiling && evictFrom(root));
    // Still past it: every connection left has a request in flight; look again later.
    if (root.count > root.ceiling) trimLater();
  }
  function trimLater(): void {
    timer ??= clock.setTimer(trim, graceMs);
  }
  return { trimLater, armed: () => timer !== undefined };
}
