// A conversation's older messages, read when asked ("Load older"). Conversations reads the
// newest 100 received and 100 sent messages of every number; what is older comes, for one
// thread, from GET /api/inbox?from=<number> (the sender exactly; offsets past the received
// messages the thread shows) and GET /api/messages?q=<number>&until=<time> (a number search,
// keeping only this thread's number; until fixed just after the oldest message of the view's
// read, so the offsets walk a list that new messages do not shift). 50 of each at a time.
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
}

interface PageOf<T> {
  data: T[];
  pagination: { hasNext: boolean };
}

/** Before the first "Load older" of a thread: received after those it shows, sent before the view's oldest. */
export function startOlder(thread: Thread, beyond: Beyond): Older {
  const shownReceived = thread.entries.filter((e) => e.kind === 'received').length;
  // 1 ms later: messages of the oldest one's millisecond not read yet are included (the repeated one is dropped).
  const until = beyond.sentBefore === null ? '' : new Date(Date.parse(beyond.sentBefore) + 1).toISOString();
  return {
    received: [],
    sent: [],
    receivedOffset: beyond.receivedMore && /[0-9a-z]/i.test(thread.number) ? shownReceived : null,
    sentOffset: until && NUMBER_LIKE.test(thread.number) ? 0 : null,
    sentUntil: until,
  };
}

const oldest = (times: (string | null)[]) => Math.min(...times.flatMap((at) => (at ? [Date.parse(at)] : [])));

/**
 * From when on (ms) a thread shows every message, or null when it shows all: each list not read
 * to its start is complete only back to its oldest message read (the view's newest 100, then the
 * thread's older pages), so an older message of the other list may have a gap above it.
 */
export function completeFrom(o: Older, beyond: Beyond): number | null {
  const bounds: number[] = [];
  if (o.receivedOffset !== null) bounds.push(o.received.length > 0 ? oldest(o.received.map((m) => m.receivedAt)) : oldest([beyond.receivedBefore]));
  if (o.sentOffset !== null) bounds.push(o.sent.length > 0 ? oldest(o.sent.map((m) => m.createdAt)) : oldest([beyond.sentBefore]));
  const from = Math.max(...bounds.filter(Number.isFinite));
  return Number.isFinite(from) ? from : null;
}

/** Whether a thread has nothing older left to read. */
export const olderDone = (o: Older) => o.receivedOffset === null && o.sentOffset === null;

/** The next page of each list that goes on. */
export async function loadOlder(call: Call, thread: Thread, o: Older): Promise<Older> {
  const number = encodeURIComponent(thread.number);
  const [received, sent] = await Promise.all([
    o.receivedOffset === null ? undefined : call<PageOf<InboxRecord>>('GET', `/api/inbox?from=${number}&limit=${PAGE}&offset=${o.receivedOffset}`),
    o.sentOffset === null
      ? undefined
      : call<PageOf<MessageRecord>>('GET', `/api/messages?q=${number}&until=${encodeURIComponent(o.sentUntil)}&limit=${PAGE}&offset=${o.sentOffset}`),
  ]);
  const next = (offset: number | null, page: PageOf<unknown> | undefined) =>
    offset === null || !page || !page.pagination.hasNext || page.data.length === 0 ? null : offset + page.data.length;
  return {
    received: [...o.received, ...(received?.data ?? [])],
    sent: [...o.sent, ...(sent?.data ?? []).filter((m) => threadKey(m.to) === thread.key)],
    receivedOffset: next(o.receivedOffset, received),
    sentOffset: next(o.sentOffset, sent),
    sentUntil: o.sentUntil,
  };
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
