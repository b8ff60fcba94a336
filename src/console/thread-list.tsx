// The side of Conversations with the threads: the search form (history-filter.tsx) and its
// line, the thread list (one button a number: who, the newest text, when), and at its end how
// far back the list is complete, with "Load older conversations" (list-older.ts). Senders,
// contact names and texts are attacker-controlled: rendered as text only.
import { useEffect, useRef } from 'preact/hooks';
import type { Thread } from './conversations.js';
import { Filters, type HistoryFilter } from './history-filter.js';
import { completeFrom, olderDone, type Older } from './older.js';
import { LoadOlder } from './thread.js';
import { Iso } from './thread-parts.js';
import { when } from './ui.js';

const OLDER_CONVERSATIONS = [
  'Load older conversations',
  'Loading older conversations…',
  'No older conversations',
] as const;

function ThreadList(p: {
  threads: Thread[];
  open: string | undefined;
  onOpen: (key: string) => void;
  focus: { key: string } | undefined;
}) {
  const { threads, open, onOpen, focus } = p;
  const list = useRef<HTMLUListElement>(null);
  // Back from a thread on a phone (the list was hidden): the focus returns to that thread's button.
  useEffect(() => {
    if (focus) list.current?.querySelector<HTMLButtonElement>(`button[data-key="${CSS.escape(focus.key)}"]`)?.focus();
  }, [focus]);
  return (
    <ul class="threads" aria-label="Conversations" ref={list}>
      {threads.map((t) => {
        const newest = t.entries[t.entries.length - 1];
        return (
          <li key={t.key}>
            <button
              type="button"
              class="thread-link"
              data-key={t.key}
              aria-current={t.key === open ? 'true' : undefined}
              onClick={() => onOpen(t.key)}
            >
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

/** The end of the list: from when on it holds every conversation, and the button that reads older ones. */
function ListEnd({ older, asked, onLoad }: { older: Older; asked: boolean; onLoad: () => Promise<void> }) {
  const done = olderDone(older);
  if (done && !asked) return null;
  const from = completeFrom(older);
  return (
    <div class="list-end">
      {!done && (
        <p class="muted">
          {from === null
            ? 'Older conversations may be missing from this list.'
            : `Listed: every conversation with a message since ${when(new Date(from).toISOString())}.`}{' '}
          Older ones: “Load older conversations”, or a search.
        </p>
      )}
      <LoadOlder older={older} onLoad={onLoad} words={OLDER_CONVERSATIONS} />
    </div>
  );
}

/** The search form, what it found, and the thread list (hidden on a phone while a thread is open). */
export function ThreadSide(p: {
  filter: HistoryFilter;
  onFilter: (f: HistoryFilter) => void;
  line: string;
  threads: Thread[];
  open: string | undefined;
  onOpen: (key: string) => void;
  focus: { key: string } | undefined;
  /** The list's older conversations (not while searching): what was read, whether asked, how to read more. */
  older: { held: Older; asked: boolean; onLoad: () => Promise<void> } | undefined;
}) {
  return (
    <div class="thread-side">
      <Filters filter={p.filter} onChange={p.onFilter} label="Search the conversations" withStatus={false} />
      <p class="muted search-line" role="status">
        {p.line}
      </p>
      {p.threads.length > 0 && <ThreadList threads={p.threads} open={p.open} onOpen={p.onOpen} focus={p.focus} />}
      {p.older && <ListEnd older={p.older.held} asked={p.older.asked} onLoad={p.older.onLoad} />}
    </div>
  );
}
