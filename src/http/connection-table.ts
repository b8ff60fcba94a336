// The open connections and who holds them, for eviction at the connection ceilings (decisions,
// "Fair share under a hostile LAN"). A pure module over anything with destroy(): no socket,
// no server. Callers form a small tree: the whole (total ceiling) holds IPv4 addresses,
// IPv6 /64s (each with its own larger ceiling) holding their addresses, and the callers
// outside the local network together (one small shared ceiling) holding theirs; every
// address has the per-address ceiling. A newcomer that would pass a ceiling is admitted
// after closing one connection under that ceiling: descend to the child holding the most
// evictable connections, then in that address close its oldest idle keep-alive connection,
// else its oldest connection that has not finished its headers. A connection with a request
// in flight is never closed here. The whole alone may go past its ceiling by `grace`
// connections for `graceMs`: a newcomer's request is read only after the accept batch it
// came in, so without that slack a batch of more than `total` newcomers (a flood while the
// event loop was held up) would close an honest newcomer before its headers were read; after
// graceMs the whole is brought back to its ceiling the same way, by then with their requests
// in flight. A connection idle or without complete headers for headersMs is closed by one
// sweep timer, armed only while such a connection exists. Time is the injected clock's
// monotonic time (core/clock.ts), so a test's fake clock moves the sweeps too.
// Every event is O(1) (the tree is three levels deep, http/connection-tree.ts; per-group
// buckets of children by evictable count find the largest holder); memory is the open
// connections and their groups. The timers are http/connection-timers.ts.
import type { Clock } from '../core/clock.js';
import { createGrace, createSweeper } from './connection-timers.js';
import {
  adjust,
  group,
  leafFor,
  leaveLeaf,
  pathOf,
  victimUnder,
  type CallerPlace,
  type Closable,
  type Entry,
  type Group,
  type TableLimits,
} from './connection-tree.js';

export type { CallerPlace, Closable, Entry, TableLimits } from './connection-tree.js';

/**
 * Room for one more on a newcomer's path (its groups up to the whole, `root`), closing
 * connections with `evictFrom`; the whole within its grace is trimmed later instead. False
 * when a full ceiling has only connections with a request in flight.
 */
function makeRoom(path: (Group | undefined)[], root: Group, grace: number, trimLater: () => void, evictFrom: (g: Group) => boolean): boolean {
  for (const g of path) {
    while (g && g.count >= g.ceiling) {
      if (g === root && g.count < g.ceiling + grace) {
        trimLater();
        break;
      }
      if (!evictFrom(g)) return false;
    }
  }
  return true;
}

export function createConnectionTable(limits: TableLimits, clock: Clock) {
  const root = group('all', limits.total, undefined);
  const sweeper = createSweeper(limits.headersMs, clock, close);
  const grace = createGrace(root, limits.graceMs, clock, evictFrom);

  function leave(entry: Entry): void {
    leaveLeaf(entry);
    sweeper.forget(entry);
  }

  function remove(entry: Entry): void {
    if (!entry.open) return;
    entry.open = false;
    leave(entry);
    adjust(entry.leaf, -1, entry.state === 'busy' ? 0 : -1);
  }

  function close(entry: Entry): void {
    remove(entry);
    entry.socket.destroy();
  }

  /** Closes one connection under `g`: false when every one there has a request in flight. */
  function evictFrom(g: Group): boolean {
    const victim = victimUnder(g);
    if (victim) close(victim);
    return victim !== undefined;
  }

  function wait(entry: Entry, state: 'idle' | 'headers'): void {
    entry.state = state;
    entry.since = clock.monotonicMs();
    (state === 'idle' ? entry.leaf.idle : entry.leaf.headers).add(entry);
    sweeper.add(entry);
  }

  return {
    // Admits a newcomer, closing others to stay within each ceiling on its path (makeRoom).
    // Refused (destroyed, undefined) only when nothing can make room.
    admit(socket: Closable, place: CallerPlace): Entry | undefined {
      if (!makeRoom(pathOf(root, place), root, limits.grace, grace.trimLater, evictFrom)) {
        socket.destroy();
        return undefined;
      }
      const leaf = leafFor(root, place, limits);
      const entry: Entry = { socket, leaf, state: 'headers', inFlight: 0, since: 0, open: true };
      adjust(leaf, 1, 1);
      wait(entry, 'headers');
      return entry;
    },
    /** A request's headers are complete: not evictable until its answer is written. */
    requestStarted(entry: Entry): void {
      if (!entry.open) return;
      entry.inFlight++;
      if (entry.state === 'busy') return;
      leave(entry);
      entry.state = 'busy';
      adjust(entry.leaf, 0, -1);
    },
    /** An answer was written (or its request abandoned): idle once none is left in flight. */
    requestEnded(entry: Entry): void {
      if (!entry.open || entry.state !== 'busy') return;
      if (--entry.inFlight > 0) return;
      adjust(entry.leaf, 0, 1);
      wait(entry, 'idle');
    },
    closed: remove,
    /** Open connections, and the callers holding them at the top of the tree. */
    size: () => root.count,
    callers: () => root.children.size,
    timerArmed: sweeper.armed,
    trimArmed: grace.armed,
  };
}

export type ConnectionTable = ReturnType<typeof createConnectionTable>;
