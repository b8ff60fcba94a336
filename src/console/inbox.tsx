// Conversations: received SMS (GET /api/inbox) and sent ones (GET /api/messages), the newest
// 100 of each, as one thread per number (conversations.ts), with the opt-out list (GET
// /api/opt-outs); a thread's older messages added when asked (older.ts); the thread list
// beside the open thread (above it on a phone, with a back button). Senders, contact names
// and texts are attacker-controlled: rendered as text only.
import { useState } from 'preact/hooks';
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';
import { ApiProblem, describe } from './api.js';
import { buildThreads, threadKey, type Thread } from './conversations.js';
import { loadOlder, startOlder, withOlder, type Beyond, type Older } from './older.js';
import { usePoll } from './poll.js';
import { ThreadView, type OptOutEntry } from './thread.js';
import { Iso } from './thread-parts.js';
import { ErrorLine, when, type Call, type ViewProps } from './ui.js';

interface Loaded {
  received: InboxRecord[];
  sent: MessageRecord[];
  beyond: Beyond;
  optOuts: Map<string, OptOutEntry>;
  /** Why received messages are missing (the inbox is off), when they are. */
  inboxOff: string | undefined;
}

interface ListPage<T> {
  data: T[];
  pagination: { hasNext: boolean };
}

async function received(call: Call): Promise<{ rows: InboxRecord[]; more: boolean; off?: string }> {
  try {
    const page = await call<ListPage<InboxRecord>>('GET', '/api/inbox?limit=100');
    return { rows: page.data, more: page.pagination.hasNext };
  } catch (err) {
    if (err instanceof ApiProblem && err.problem.kind === 'error' && err.problem.code === 'inbox_disabled')
      return { rows: [], more: false, off: err.problem.message };
    throw err;
  }
}

async function load(call: Call): Promise<Loaded> {
  const [inbox, sent, optOuts] = await Promise.all([
    received(call),
    call<ListPage<MessageRecord>>('GET', '/api/messages?limit=100'),
    call<{ data: OptOutEntry[] }>('GET', '/api/opt-outs?limit=100'),
  ]);
  const oldestSent = sent.data[sent.data.length - 1];
  return {
    received: inbox.rows,
    sent: sent.data,
    beyond: { receivedMore: inbox.more, sentBefore: sent.pagination.hasNext && oldestSent ? oldestSent.createdAt : null },
    optOuts: new Map(optOuts.data.map((o) => [threadKey(o.number), o])),
    inboxOff: inbox.off,
  };
}

function ThreadList({ threads, open, onOpen }: { threads: Thread[]; open: string | undefined; onOpen: (key: string) => void }) {
  return (
    <ul class="threads" aria-label="Conversations">
      {threads.map((t) => {
        const newest = t.entries[t.entries.length - 1];
        return (
          <li key={t.key}>
            <button type="button" class="thread-link" aria-current={t.key === open ? 'true' : undefined} onClick={() => onOpen(t.key)}>
              <span class="thread-who">
                {t.contact && <Iso text={t.contact} />} <Iso text={t.number} />
              </span>
              {newest && <Iso text={newest.message.body} kind="body" />}
              <span class="muted">{when(t.last)}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

export function Inbox({ call }: ViewProps) {
  const [data, setData] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [open, setOpen] = useState<string>();
  const [round, setRound] = useState(0);
  const [older, setOlder] = useState<ReadonlyMap<string, Older>>(new Map());
  usePoll(async () => {
    try {
      setData(await load(call));
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  }, [round]);
  const olders = [...older.values()];
  const threads = data
    ? buildThreads(
        withOlder(
          data.received,
          olders.map((o) => o.received),
        ),
        withOlder(
          data.sent,
          olders.map((o) => o.sent),
        ),
      )
    : undefined;
  const thread = threads?.find((t) => t.key === open);
  /** Reads the open thread's next older messages (its start read from the view's data the first time). */
  const readOlder = async (t: Thread) => {
    if (!data) return;
    const next = await loadOlder(call, t, older.get(t.key) ?? startOlder(t, data.beyond));
    setOlder((m) => new Map(m).set(t.key, next));
  };
  return (
    <section>
      <h1>Conversations</h1>
      <ErrorLine text={error} />
      {data?.inboxOff && <p class="note">{data.inboxOff}</p>}
      {threads && threads.length === 0 && <p>No conversation yet.</p>}
      {data && threads && threads.length > 0 && (
        <div class={thread ? 'conversations has-open' : 'conversations'}>
          <ThreadList threads={threads} open={open} onOpen={setOpen} />
          {thread ? (
            <ThreadView
              key={thread.key}
              call={call}
              thread={thread}
              optOut={data.optOuts.get(thread.key)}
              older={older.get(thread.key) ?? startOlder(thread, data.beyond)}
              onLoadOlder={() => readOlder(thread)}
              onBack={() => setOpen(undefined)}
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
