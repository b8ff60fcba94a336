// Conversations: received SMS (GET /api/inbox) and sent ones (GET /api/messages), the newest
// 100 of each, as one thread per number (conversations.ts), with the opt-out list (GET
// /api/opt-outs); the thread list beside the open thread (above it on a phone, with a back
// button). Senders, contact names and texts are attacker-controlled: rendered as text only.
import { useState } from 'preact/hooks';
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';
import { ApiProblem, describe } from './api.js';
import { buildThreads, threadKey, type Thread } from './conversations.js';
import { usePoll } from './poll.js';
import { ThreadView, type OptOutEntry } from './thread.js';
import { Iso } from './thread-parts.js';
import { ErrorLine, when, type Call, type ViewProps } from './ui.js';

interface Loaded {
  threads: Thread[];
  optOuts: Map<string, OptOutEntry>;
  /** Why received messages are missing (the inbox is off), when they are. */
  inboxOff: string | undefined;
}

async function received(call: Call): Promise<{ rows: InboxRecord[]; off?: string }> {
  try {
    return { rows: (await call<{ data: InboxRecord[] }>('GET', '/api/inbox?limit=100')).data };
  } catch (err) {
    if (err instanceof ApiProblem && err.problem.kind === 'error' && err.problem.code === 'inbox_disabled') return { rows: [], off: err.problem.message };
    throw err;
  }
}

async function load(call: Call): Promise<Loaded> {
  const [inbox, sent, optOuts] = await Promise.all([
    received(call),
    call<{ data: MessageRecord[] }>('GET', '/api/messages?limit=100'),
    call<{ data: OptOutEntry[] }>('GET', '/api/opt-outs?limit=100'),
  ]);
  return {
    threads: buildThreads(inbox.rows, sent.data),
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
  usePoll(async () => {
    try {
      setData(await load(call));
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  }, [round]);
  const thread = data?.threads.find((t) => t.key === open);
  return (
    <section>
      <h1>Conversations</h1>
      <ErrorLine text={error} />
      {data?.inboxOff && <p class="note">{data.inboxOff}</p>}
      {data && data.threads.length === 0 && <p>No conversation yet.</p>}
      {data && data.threads.length > 0 && (
        <div class={thread ? 'conversations has-open' : 'conversations'}>
          <ThreadList threads={data.threads} open={open} onOpen={setOpen} />
          {thread ? (
            <ThreadView
              key={thread.key}
              call={call}
              thread={thread}
              optOut={data.optOuts.get(thread.key)}
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
