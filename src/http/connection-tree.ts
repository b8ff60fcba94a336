// The connection table's tree of callers (http/connection-table.ts): groups with their
// ceilings (the whole; IPv4 addresses; IPv6 /64s holding their addresses; the callers outside
// the local network together, holding theirs), the counts of connections each holds and how
// many of those may be closed, and per group its children bucketed by that evictable count,
// so the child holding the most is found in O(1). Pure data and arithmetic: no socket, no timer.

export interface Closable {
  destroy(): void;
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

export type State = 'headers' | 'idle' | 'busy';

export interface Group {
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

export function group(key: string, ceiling: number, parent: Group | undefined): Group {
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
export function adjust(leaf: Group, count: number, evictable: number): void {
  for (let g: Group | undefined = leaf; g; g = g.parent) {
    const before = g.evictable;
    g.count += count;
    g.evictable += evictable;
    if (g.parent && before !== g.evictable) rebucket(g.parent, g, before, g.evictable);
    if (g.parent && g.count === 0) g.parent.children.delete(g.key);
  }
}

export const find = (parent: Group | undefined, key: string | undefined) => (parent && key !== undefined ? parent.children.get(key) : undefined);

/** The existing groups from a newcomer's address up to the whole, each with its ceiling. */
export function pathOf(root: Group, place: CallerPlace): (Group | undefined)[] {
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
export function leafFor(root: Group, place: CallerPlace, limits: TableLimits): Group {
  const child = (parent: Group, key: string, ceiling: number) => {
    let g = parent.children.get(key);
    if (!g) parent.children.set(key, (g = group(key, ceiling, parent)));
    return g;
  };
  if (place.outside) return child(child(root, 'outside', limits.outside), place.address, limits.perAddress);
  if (place.prefix !== undefined) return child(child(root, place.prefix, limits.perPrefix), place.address, limits.perAddress);
  return child(root, place.address, limits.perAddress);
}

/** The connection to close under `g` (the largest holder's oldest idle one, else its oldest without headers), if any. */
export function victimUnder(g: Group): Entry | undefined {
  if (g.evictable === 0) return undefined;
  let at = g;
  while (at.children.size > 0) at = at.buckets.get(at.top)!.values().next().value!;
  return at.idle.values().next().value ?? at.headers.values().next().value!;
}

/** Takes a connection off its address's idle or headers list (it is busy, or gone). */
export function leaveLeaf(entry: Entry): void {
  if (entry.state === 'idle') entry.leaf.idle.delete(entry);
  else if (entry.state === 'headers') entry.leaf.headers.delete(entry);
}
