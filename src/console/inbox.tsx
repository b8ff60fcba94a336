// Conversations: received SMS (GET /api/inbox) and sent ones (GET /api/messages), the newest
// 100 of each, as one thread per number (conversations.ts), with the opt-out list (GET
// /api/opt-outs, whatever its length: opt-out-book.ts); older conversations added when asked
// at the end of the list (list-older.ts), a thread's older messages when asked in it
// (older.ts); above the thread list a search by number or text and a date range, asked of the
// gateway (the history's filter form and query, history-filter.tsx; kept in the address,
// #/inbox?q=...&open=<the open thread>), listing the threads with a matching message, each with
// its newest match; the thread list (thread-list.tsx) beside the open thread (above it on a phone, with a back
// button). Senders, contact names and texts are attacker-controlled: rendered as text only.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';
import { ApiProblem, describe } from './api.js';
import { buildThreads, type Thread } from './conversations.js';
import { filterFromHash, impossible, keepInAddress, useFilterQuery, type HistoryFilter } from './history-filter.js';
import { hashParams } from './history-filter.js';
import { foldRead, loadListOlder, reachOf, startListOlder } from './list-older.js';
import { completeFrom, loadOlder, startOlder, withOlder, type Beyond, type Older } from './older.js';
import { readOptOuts, type OptOutBook, type OptOutEntry } from './opt-out-book.js';
import { usePoll } from './poll.js';
import { ThreadView } from './thread.js';
import { ThreadSide } from './thread-list.js';
import { ErrorLine, type Call, type ViewProps } from './ui.js';

/** The messages a search matched (the newest 100 of each list), and the query asked. */
interface Found {
  query: string;
  received: InboxRecord[];
  sent: MessageRecord[];
  /** Whether more matched than were read. */
  more: boolean;
}

interface Loaded {
  received: InboxRecord[];
  sent: MessageRecord[];
  beyond: Beyond;
  optOuts: Map<string, OptOutEntry>;
  /** The opt-out list as read so far, for the next poll. */
  optOutBook: OptOutBook;
  /** Why received messages are missing (the inbox is off), when they are. */
  inboxOff: string | undefined;
  /** The search's matches, when a search is asked. */
  found: Found | undefined;
}

interface ListPage<T> {
  data: T[];
  pagination: { hasNext: boolean };
}

/** The newest 100 received SMS (of a search, when `query` holds one); none, and why, while the inbox is off. */
async function received(call: Call, query: string): Promise<{ rows: InboxRecord[]; more: boolean; off?: string }> {
  try {
    const page = await call<ListPage<InboxRecord>>('GET', `/api/inbox?${query ? `${query}&` : ''}limit=100`);
    return { rows: page.data, more: page.pagination.hasNext };
  } catch (err) {
    if (err instanceof ApiProblem && err.problem.kind === 'error' && err.problem.code === 'inbox_disabled')
      return { rows: [], more: false, off: err.problem.message };
    throw err;
  }
}

/** The newest 100 received and 100 sent messages a search (q, since, until) matches. */
async function search(call: Call, query: string): Promise<Found> {
  const [inbox, sent] = await Promise.all([
    received(call, query),
    call<ListPage<MessageRecord>>('GET', `/api/messages?${query}&limit=100`),
  ]);
  return { query, received: inbox.rows, sent: sent.data, more: inbox.more || sent.pagination.hasNext };
}

async function load(call: Call, query: string, book: OptOutBook | undefined): Promise<Loaded> {
  const [inbox, sent, optOuts, found] = await Promise.all([
    received(call, ''),
    call<ListPage<MessageRecord>>('GET', '/api/messages?limit=100'),
    readOptOuts(call, book),
    query ? search(call, query) : undefined,
  ]);
  const oldestSent = sent.data[sent.data.length - 1];
  const oldestReceived = inbox.rows[inbox.rows.length - 1];
  return {
    received: inbox.rows,
    sent: sent.data,
    beyond: {
      receivedMore: inbox.more,
      sentBefore: sent.pagination.hasNext && oldestSent ? oldestSent.createdAt : null,
      receivedBefore: inbox.more && oldestReceived ? oldestReceived.receivedAt : null,
    },
    optOuts: optOuts.listed,
    optOutBook: optOuts.book,
    inboxOff: inbox.off,
    found,
  };
}

/**
 * The threads: `all` from the view's read with the older conversations and every thread's older
 * messages (`olders`, the list's first) and a search's matches (a match may be older than the
 * read); `read` without the matches (where "Load older" starts); `listed`, with a search, one
 * thread a number with a match, its newest match last.
 */
function threadsOf(data: Loaded, olders: Older[]) {
  const found = data.found;
  const olderReceived = olders.map((o) => o.received);
  const olderSent = olders.map((o) => o.sent);
  const read = buildThreads(withOlder(data.received, olderReceived), withOlder(data.sent, olderSent));
  if (!found) return { all: read, read, listed: read };
  const all = buildThreads(
    withOlder(data.received, [...olderReceived, found.received]),
    withOlder(data.sent, [...olderSent, found.sent]),
  );
  const contacts = new Map(all.map((t) => [t.key, t.contact]));
  const listed = buildThreads(found.received, found.sent).map((t) => ({
    ...t,
    contact: t.contact ?? contacts.get(t.key) ?? null,
  }));
  return { all, read, listed };
}

/** Where a thread's "Load older" starts: after its messages in the view's own read (a search's matches aside). */
function olderStart(read: Thread[], thread: Thread, beyond: Beyond): Older {
  return startOlder(read.find((r) => r.key === thread.key) ?? { ...thread, entries: [] }, beyond);
}

/** What the search line says: why nothing can match, that the search runs, or how many threads match. */
function searchLine(blocked: string | undefined, query: string, found: Found | undefined, listed: number): string {
  if (blocked) return blocked;
  if (!query) return '';
  if (found?.query !== query) return 'Searching…';
  const count =
    listed === 0
      ? 'No conversation matches.'
      : `${listed} conversation${listed === 1 ? '' : 's'} match${listed === 1 ? 'es' : ''}.`;
  return found.more
    ? `${count} Only the newest 100 matching received and 100 matching sent messages are looked at.`
    : count;
}

/**
 * The view's read, now and every few seconds (a search's too): the opt-out list carried from read to read, each read
 * folded into the older conversations once asked.
 */
function useConversations(call: Call, query: string, round: number) {
  const [data, setData] = useState<Loaded>();
  const [error, setError] = useState<string>();
  /** The older conversations read at the end of the list, once asked. */
  const [listOlder, setListOlder] = useState<Older>();
  const optOutBook = useRef<OptOutBook>(undefined);
  const asked = useRef(query);
  asked.current = query;
  usePoll(async () => {
    try {
      const next = await load(call, query, optOutBook.current);
      optOutBook.current = next.optOutBook;
      if (asked.current !== query) return; // a newer search was asked meanwhile
      setData(next);
      setListOlder((o) => o && foldRead(o, next.received, next.sent));
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  }, [round, query]);
  return { data, error, listOlder, setListOlder };
}

/** The Conversations' part of a filter: the search and the days (no status, no tag). */
const searchOnly = (f: HistoryFilter): HistoryFilter => ({ ...f, status: '', tag: '' });

export function Inbox({ call }: ViewProps) {
  const [open, setOpen] = useState<string | undefined>(() => hashParams(location.hash).get('open') ?? undefined);
  /** The thread whose button gets the focus back (a new object each time back is pressed). */
  const [returnTo, setReturnTo] = useState<{ key: string }>();
  const [round, setRound] = useState(0);
  const [older, setOlder] = useState<ReadonlyMap<string, Older>>(new Map());
  const [filter, setFilter] = useState<HistoryFilter>(() => searchOnly(filterFromHash(location.hash)));
  const blocked = impossible(filter);
  const typedQuery = useFilterQuery(filter);
  const query = blocked ? '' : typedQuery;
  useEffect(() => keepInAddress(filter, 'inbox', { open: open ?? '' }), [filter, open]);
  const { data, error, listOlder, setListOlder } = useConversations(call, query, round);
  const threads = data && threadsOf(data, [...(listOlder ? [listOlder] : []), ...older.values()]);
  // What the list holds: the older conversations read, or (none asked yet) the view's read.
  const held = data && (listOlder ?? startListOlder(data.received, data.sent, data.beyond));
  const searching = filter.text.trim() !== '' || filter.from !== '' || filter.to !== '';
  // While a new search runs, the last one's threads stay listed (the line says "Searching…").
  const listed = blocked ? [] : query ? (threads?.listed ?? []) : (threads?.read ?? []);
  const thread = threads?.all.find((t) => t.key === open);
  const threadOlder =
    thread && threads && held && (older.get(thread.key) ?? olderStart(threads.read, thread, reachOf(held)));
  /** Reads the open thread's next older messages. */
  const readOlder = async (t: Thread, from: Older) => {
    const next = await loadOlder(call, t, from);
    setOlder((m) => new Map(m).set(t.key, next));
  };
  /** Reads the list's next older conversations (with the reads folded in meanwhile). */
  const readListOlder = async (from: Older) => {
    const next = await loadListOlder(call, from);
    setListOlder((now) => (now && now !== from ? foldRead(next, now.received, now.sent) : next));
  };
  return (
    <section>
      <h1>Conversations</h1>
      <ErrorLine text={error} />
      {data?.inboxOff && <p class="note">{data.inboxOff}</p>}
      {threads && threads.read.length === 0 && !searching && <p>No conversation yet.</p>}
      {data && threads && held && (threads.read.length > 0 || searching) && (
        <div class={thread ? 'conversations has-open' : 'conversations'}>
          <ThreadSide
            filter={filter}
            onFilter={(f) => setFilter(searchOnly(f))}
            line={searchLine(blocked, query, data.found, listed.length)}
            threads={listed}
            open={open}
            onOpen={setOpen}
            focus={returnTo}
            older={query ? undefined : { held, asked: listOlder !== undefined, onLoad: () => readListOlder(held) }}
          />
          {thread && threadOlder ? (
            <ThreadView
              key={thread.key}
              call={call}
              thread={thread}
              optOut={data.optOuts.get(thread.key)}
              older={threadOlder}
              completeFrom={completeFrom(threadOlder)}
              onLoadOlder={() => readOlder(thread, threadOlder)}
              onBack={() => {
                setReturnTo({ key: thread.key });
                setOpen(undefined);
              }}
              onChanged={() => setRound((r) => r + 1)}
            />
          ) : (
            <p class="thread-none muted">Choose a conversation.</p>
          )}
        </div>
      )}
    </section>
  );
}
