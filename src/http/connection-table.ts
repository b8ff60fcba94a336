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
// sweep timer, armed only while such a connection exists.
// Every event is O(1) (the tree is three levels deep; per-group buckets of children by
// evictable count find the largest holder); memory is the open connections and their groups.

export interface Closable {
  destroy(): void;
}

export interface TableTimer {
  cancel(): void;
}

/** Monotonic time and one-shot timers (unref'd in production). */
export interface TableClock {
  now(): number;
  setTimer(fn: () => void, ms: number): TableTimer;
}

export interface TableLimits {
  total: number;
  perAddress: number;
  perPrefix: number;
  outside: number;
  /** Longest time a connection may stay without a complete request's headers. */
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

type State = 'headers' | 'idle' | 'busy';

interface Group {
  key: string;
  ceiling: number;
  parent: Group | undefined;
  /** Connections held under this group, and how many of them may be closed. */
  count: number;
  evictable: number;
  children: Map<string, Group>;
  /** Children by their evictable count (> 0), and the largest such count. */
  buckets: Map<number, Set<Group>>;
  top: number;
  /** Leaves only: evictable connections by state, oldest first (insertion order). */
  idle: Set<Entry>;
  headers: Set<Entry>;
}

export interface Entry {
  readonly socket: Closable;
  readonly leaf: Group;
  state: State;
  inFlight: number;
  /** When it entered its idle or headers state. */
  since: number;
  open: boolean;
}

function group(key: string, ceiling: number, parent: Group | undefined): Group {
  return { key, ceiling, parent, count: 0, evictable: 0, children: new Map(), buckets: new Map(), top: 0, idle: new Set(), headers: new Set() };
}

/** Moves `child` from the bucket of `from` evictable connections to that of `to`. */
function rebucket(parent: Group, child: Group, from: number, to: number): void {
  if (from > 0) {
    const bucket = parent.buckets.get(from)!;
    bucket.delete(child);
    if (bucket.size === 0) parent.buckets.delete(from);
  }
  if (to > 0) {
    let bucket = parent.buckets.get(to);
    if (!bucket) parent.buckets.set(to, (bucket = new Set()));
    bucket.add(child);
    if (to > parent.top) parent.top = to;
  }
  // Counts move by one, so this steps down at most once.
  while (parent.top > 0 && !parent.buckets.has(parent.top)) parent.top--;
}

/** Adds to the counts of a leaf and its ancestors; an emptied group leaves its parent. */
function adjust(leaf: Group, count: number, evictable: number): void {
  for (let g: Group | undefined = leaf; g; g = g.parent) {
    const before = g.evictable;
    g.count += count;
    g.evictable += evictable;
    if (g.parent && before !== g.evictable) rebucket(g.parent, g, before, g.evictable);
    if (g.parent && g.count === 0) g.parent.children.delete(g.key);
  }
}

const find = (parent: Group | undefined, key: string | undefined) => (parent && key !== undefined ? parent.children.get(key) : undefined);

/** The existing groups from a newcomer's address up to the whole, each with its ceiling. */
function pathOf(root: Group, place: CallerPlace): (Group | undefined)[] {
  if (place.outside) {
    const outside = find(root, 'outside');
    return [find(outside, place.address), outside, root];
  }
  if (place.prefix !== undefined) {
    const prefix = find(root, place.prefix);
    return [find(prefix, place.address), prefix, root];
  }
  return [find(root, place.address), root];
}

/** The newcomer's address group, made (with its /64 or the outside group) when missing. */
function leafFor(root: Group, place: CallerPlace, limits: TableLimits): Group {
  const child = (parent: Group, key: string, ceiling: number) => {
    let g = parent.children.get(key);
    if (!g) parent.children.set(key, (g = group(key, ceiling, parent)));
    return g;
  };
  if (place.outside) return child(child(root, 'outside', limits.outside), place.address, limits.perAddress);
  if (place.prefix !== undefined) return child(child(root, place.prefix, limits.perPrefix), place.address, limits.perAddress);
  return child(root, place.address, limits.perAddress);
}

/** Closes every connection idle or without headers for headersMs, by one timer armed only while one waits. */
function createSweeper(waiting: Set<Entry>, headersMs: number, clock: TableClock, close: (entry: Entry) => void) {
  let timer: TableTimer | undefined;
  function sweep(): void {
    timer = undefined;
    const now = clock.now();
    for (const entry of waiting) {
      if (entry.since + headersMs > now) break;
      close(entry);
    }
    arm();
  }
  function arm(): void {
    if (timer || waiting.size === 0) return;
    const oldest = waiting.values().next().value!;
    timer = clock.setTimer(sweep, Math.max(0, oldest.since + headersMs - clock.now()));
  }
  return { arm, armed: () => timer !== undefined };
}

/** The whole past its ceiling (within its grace): room is made graceMs later, and again while all are busy. */
function createGrace(root: Group, graceMs: number, clock: TableClock, evictFrom: (g: Group) => boolean) {
  let timer: TableTimer | undefined;
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

export function createConnectionTable(limits: TableLimits, clock: TableClock) {
  const root = group('all', limits.total, undefined);
  /** Idle and headers connections in the order they entered that state: the sweep's queue. */
  const waiting = new Set<Entry>();
  const sweeper = createSweeper(waiting, limits.headersMs, clock, close);
  const grace = createGrace(root, limits.graceMs, clock, evictFrom);

  function leave(entry: Entry): void {
    if (entry.state === 'idle') entry.leaf.idle.delete(entry);
    else if (entry.state === 'headers') entry.leaf.headers.delete(entry);
    waiting.delete(entry);
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
    if (g.evictable === 0) return false;
    let at = g;
    while (at.children.size > 0) at = at.buckets.get(at.top)!.values().next().value!;
    const victim = at.idle.values().next().value ?? at.headers.values().next().value!;
    close(victim);
    return true;
  }

  function wait(entry: Entry, state: 'idle' | 'headers'): void {
    entry.state = state;
    entry.since = clock.now();
    (state === 'idle' ? entry.leaf.idle : entry.leaf.headers).add(entry);
    waiting.add(entry);
    sweeper.arm();
  }

  return {
    // Admits a newcomer, closing others to stay within each ceiling on its path (address,
    // /64 or outside, whole: within its grace room is made later, by trim). Refused
    // (destroyed, undefined) only when every connection under a full ceiling has a request in
    // flight: then nothing else can make room.
    admit(socket: Closable, place: CallerPlace): Entry | undefined {
      for (const g of pathOf(root, place)) {
        while (g && g.count >= g.ceiling) {
          if (g === root && g.count < g.ceiling + limits.grace) {
            grace.trimLater();
            break;
          }
          if (!evictFrom(g)) {
            socket.destroy();
            return undefined;
          }
        }
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
