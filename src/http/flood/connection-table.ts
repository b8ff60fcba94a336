// The open connections and who holds them, for eviction at the connection ceilings: a pure
// module over anything with destroy() and the injected clock (no socket, no server). Callers
// form a tree three levels deep: the whole holds IPv4 addresses, IPv6 /64s (each holding its
// addresses) and the callers outside the local network together (holding theirs). A newcomer
// that would pass a ceiling on its path is admitted after closing one connection under that
// ceiling: descend to the child holding the most evictable connections (the oldest such
// child on a tie), then close that address's oldest idle keep-alive connection, else its
// oldest one without complete headers. A connection with a request in flight is never closed
// here. The whole alone may go past its ceiling by `grace` for `graceMs` (a newcomer's request
// is read only after the accept batch it came in); then it is trimmed back the same way. One
// sweep timer, armed only while an idle or headers connection exists, closes those older than
// headersMs. Eviction scans the children of a group (a few hundred at most): only at a ceiling.
import type { Clock, Timer } from '../../core/clock.js';

export interface Closable {
  destroy(): void;
}

export interface TableLimits {
  total: number;
  perAddress: number;
  perPrefix: number;
  outside: number;
  /** Longest time a connection may stay idle or without a complete request's headers. */
  headersMs: number;
  /** How far past `total` the whole may go, and for how long, before room is made. */
  grace: number;
  graceMs: number;
}

/** Where a caller sits in the tree: its address, its /64 (IPv6 on the LAN), outside or not. */
export interface CallerPlace {
  address: string;
  prefix?: string;
  outside: boolean;
}

interface Group {
  key: string;
  ceiling: number;
  parent: Group | undefined;
  /** Connections held under this group, and how many of them may be closed. */
  count: number;
  evictable: number;
  children: Map<string, Group>;
  /** Leaves only: evictable connections by state, oldest first (insertion order). */
  idle: Set<Entry>;
  headers: Set<Entry>;
}

export interface Entry {
  readonly socket: Closable;
  readonly leaf: Group;
  state: 'headers' | 'idle' | 'busy';
  inFlight: number;
  /** When it entered its idle or headers state. */
  since: number;
  open: boolean;
}

const group = (key: string, ceiling: number, parent: Group | undefined): Group => ({
  key,
  ceiling,
  parent,
  count: 0,
  evictable: 0,
  children: new Map(),
  idle: new Set(),
  headers: new Set(),
});

/** Adds to the counts of a leaf and its ancestors; an emptied group leaves its parent. */
function adjust(leaf: Group, count: number, evictable: number): void {
  for (let g: Group | undefined = leaf; g; g = g.parent) {
    g.count += count;
    g.evictable += evictable;
    if (g.parent && g.count === 0) g.parent.children.delete(g.key);
  }
}

/** The connection to close under `g`: the largest holder's oldest idle one, else its oldest without headers. */
function victimUnder(g: Group): Entry | undefined {
  if (g.evictable === 0) return undefined;
  let at = g;
  while (at.children.size > 0) {
    let best: Group | undefined;
    for (const child of at.children.values()) if (!best || child.evictable > best.evictable) best = child;
    at = best!;
  }
  return at.idle.values().next().value ?? at.headers.values().next().value;
}

/** The groups from a newcomer's address up to the whole (undefined where none exists yet). */
function pathOf(root: Group, place: CallerPlace): (Group | undefined)[] {
  const top = place.outside ? 'outside' : place.prefix;
  if (top === undefined) return [root.children.get(place.address), root];
  const middle = root.children.get(top);
  return [middle?.children.get(place.address), middle, root];
}

/** The newcomer's address group, made (with its /64 or the outside group) when missing. */
function leafFor(root: Group, place: CallerPlace, limits: TableLimits): Group {
  const child = (parent: Group, key: string, ceiling: number) => {
    let g = parent.children.get(key);
    if (!g) parent.children.set(key, (g = group(key, ceiling, parent)));
    return g;
  };
  if (place.outside) return child(child(root, 'outside', limits.outside), place.address, limits.perAddress);
  if (place.prefix === undefined) return child(root, place.address, limits.perAddress);
  return child(child(root, place.prefix, limits.perPrefix), place.address, limits.perAddress);
}

/** Closes every connection idle or without headers for `ms`, by one timer armed only while one waits. */
function createSweeper(ms: number, clock: Clock, close: (entry: Entry) => void) {
  /** Idle and headers connections in the order they entered that state: the sweep's queue. */
  const waiting = new Set<Entry>();
  let timer: Timer | undefined;
  function sweep(): void {
    timer = undefined;
    const now = clock.monotonicMs();
    for (const entry of waiting) {
      if (entry.since + ms > now) break;
      close(entry);
    }
    arm();
  }
  function arm(): void {
    if (timer || waiting.size === 0) return;
    const oldest = waiting.values().next().value!;
    timer = clock.setTimer(sweep, Math.max(0, oldest.since + ms - clock.monotonicMs()));
  }
  return {
    add(entry: Entry): void {
      waiting.add(entry);
      arm();
    },
    forget: (entry: Entry) => waiting.delete(entry),
    armed: () => timer !== undefined,
  };
}

/** What makeRoom needs of its table: the whole, its grace, and how to close one under a group. */
interface Room {
  root: Group;
  grace: number;
  trimLater: () => void;
  evictFrom: (g: Group) => boolean;
}

/** Room for one more on a newcomer's path; the whole within its grace is trimmed later instead. */
function makeRoom(path: (Group | undefined)[], { root, grace, trimLater, evictFrom }: Room): boolean {
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
  let trimTimer: Timer | undefined;
  /** The whole past its ceiling: trimmed graceMs later, and again while every connection left is busy. */
  function trim(): void {
    trimTimer = undefined;
    while (root.count > root.ceiling && evictFrom(root));
    if (root.count > root.ceiling) trimLater();
  }
  function trimLater(): void {
    trimTimer ??= clock.setTimer(trim, limits.graceMs);
  }

  function leave(entry: Entry): void {
    if (entry.state === 'idle') entry.leaf.idle.delete(entry);
    else if (entry.state === 'headers') entry.leaf.headers.delete(entry);
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
  const room: Room = { root, grace: limits.grace, trimLater, evictFrom };

  return {
    /** Admits a newcomer, closing others to stay within each ceiling; refused (destroyed) when none can be closed. */
    admit(socket: Closable, place: CallerPlace): Entry | undefined {
      if (!makeRoom(pathOf(root, place), room)) {
        socket.destroy();
        return undefined;
      }
      const leaf = leafFor(root, place, limits);
      const entry: Entry = { socket, leaf, state: 'headers', inFlight: 0, since: 0, open: true };
      adjust(entry.leaf, 1, 1);
      wait(entry, 'headers');
      return entry;
    },
    /** A request is handed to the app: not evictable until its answer is written. */
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
    trimArmed: () => trimTimer !== undefined,
  };
}

export type ConnectionTable = ReturnType<typeof createConnectionTable>;
