// A conversation's older messages, read when asked ("Load older"). Conversations reads the
// newest 100 received and 100 sent messages of every number; what is older comes, for one
// thread, from GET /api/inbox?from=<number> (the sender exactly; offsets past the received
// messages the thread shows) and GET /api/messages?q=<number>&until=<time> (a number search,
// keeping only this thread's number; until fixed just after the oldest message of the view's
// read, so the offsets walk a list that new messages do not shift). 50 of each at a time. The
// thread's own messages of the view's read at the first "Load older" are kept with the older
// ones: new messages elsewhere push them out of the next read, and nothing else would show them.
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';
import { threadKey, type Thread } from './conversations.js';
import type { Call } from './ui.js';

const PAGE = 50;
const NUMBER_LIKE = /^\+?[\d\s\-.()]+$/;

/** What the view's own read left out: whether older received SMS exist, the time before which sent ones may. */
export interface Beyond {
  receivedMore: boolean;
  /** The oldest sent message the view read (ISO), when there are older ones; else null. */
  sentBefore: string | null;
  /** The oldest received SMS the view read (ISO), when there are older ones; else null. */
  receivedBefore: string | null;
}

/** One thread's older messages, and where each list goes on (null: its start was reached). */
export interface Older {
  received: InboxRecord[];
  sent: MessageRecord[];
  receivedOffset: number | null;
  sentOffset: number | null;
  sentUntil: string;
  /** The oldest time each list was read back to (ISO; null: unknown), while it goes on. */
  receivedFrom: string | null;
  sentFrom: string | null;
}

interface PageOf<T> {
  data: T[];
  pagination: { hasNext: boolean };
}

/**
 * Where older sent pages end: 1 ms after the oldest read, so messages of its millisecond not read yet are included (the
 * repeated one is dropped); '' when none are older.
 */
export const sentUntil = (beyond: Beyond) =>
  beyond.sentBefore === null ? '' : new Date(Date.parse(beyond.sentBefore) + 1).toISOString();

/** Before the first "Load older" of a thread: received after those it shows, sent before the view's oldest. */
export function startOlder(thread: Thread, beyond: Beyond): Older {
  const shownReceived = thread.entries.filter((e) => e.kind === 'received').length;
  const until = sentUntil(beyond);
  return {
    received: thread.entries.flatMap((e) => (e.kind === 'received' ? [e.message] : [])).reverse(),
    sent: thread.entries.flatMap((e) => (e.kind === 'sent' ? [e.message] : [])).reverse(),
    receivedOffset: beyond.receivedMore && /[0-9a-z]/i.test(thread.number) ? shownReceived : null,
    sentOffset: until && NUMBER_LIKE.test(thread.number) ? 0 : null,
    sentUntil: until,
    receivedFrom: beyond.receivedBefore,
    sentFrom: beyond.sentBefore,
  };
}

/**
 * From when on (ms) a thread shows every message, or null when it shows all: each list not read
 * to its start is complete only back to the oldest time it was read to (the view's newest 100,
 * then the thread's older pages), so an older message of the other list may have a gap above it.
 */
export function completeFrom(o: Older): number | null {
  const bounds: (string | null)[] = [];
  if (o.receivedOffset !== null) bounds.push(o.receivedFrom);
  if (o.sentOffset !== null) bounds.push(o.sentFrom);
  const from = Math.max(...bounds.flatMap((at) => (at ? [Date.parse(at)] : [])));
  return Number.isFinite(from) ? from : null;
}

/** Whether a thread has nothing older left to read. */
export const olderDone = (o: Older) => o.receivedOffset === null && o.sentOffset === null;

/** Where the next page of each list is read, at an offset; and which sent messages are kept. */
export interface PageAddresses {
  received: (offset: number) => string;
  sent: (offset: number) => string;
  keepSent?: (m: MessageRecord) => boolean;
}

/** The next page of each list that goes on, added to what was read. */
export async function readNext(call: Call, o: Older, at: PageAddresses): Promise<Older> {
  const [received, sent] = await Promise.all([
    o.receivedOffset === null ? undefined : call<PageOf<InboxRecord>>('GET', at.received(o.receivedOffset)),
    o.sentOffset === null ? undefined : call<PageOf<MessageRecord>>('GET', at.sent(o.sentOffset)),
  ]);
  const next = (offset: number | null, page: PageOf<unknown> | undefined) =>
    offset === null || !page || !page.pagination.hasNext || page.data.length === 0 ? null : offset + page.data.length;
  const last = <T>(page: PageOf<T> | undefined) => page?.data[page.data.length - 1];
  const keepSent = at.keepSent ?? (() => true);
  return {
    received: [...o.received, ...(received?.data ?? [])],
    sent: [...o.sent, ...(sent?.data ?? []).filter(keepSent)],
    receivedOffset: next(o.receivedOffset, received),
    sentOffset: next(o.sentOffset, sent),
    sentUntil: o.sentUntil,
    receivedFrom: last(received)?.receivedAt ?? o.receivedFrom,
    sentFrom: last(sent)?.createdAt ?? o.sentFrom,
  };
}

/** The next page of one thread's lists. */
export function loadOlder(call: Call, thread: Thread, o: Older): Promise<Older> {
  const number = encodeURIComponent(thread.number);
  return readNext(call, o, {
    received: (offset) => `/api/inbox?from=${number}&limit=${PAGE}&offset=${offset}`,
    sent: (offset) =>
      `/api/messages?q=${number}&until=${encodeURIComponent(o.sentUntil)}&limit=${PAGE}&offset=${offset}`,
    keepSent: (m) => threadKey(m.to) === thread.key,
  });
}

/** The view's lists with every thread's older messages added, each message once, newest first. */
export function withOlder<T extends { id: string }>(newest: T[], older: T[][]): T[] {
  const seen = new Set(newest.map((m) => m.id));
  const merged = [...newest];
  for (const m of older.flat()) {
    if (seen.has(m.id)) continue;
    seen.add(m.id);
    merged.push(m);
  }
  return merged;
}
