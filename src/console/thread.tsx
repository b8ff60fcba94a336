// One open conversation: who it is with, the number's opt-out state with a toggle (asking
// first before opting out), "Load older" (older.ts), its messages oldest first, "Send again"
// on a failed one (a new queued message with the same text and number) and the reply box;
// opened at its newest message, the reply box in view (thread-scroll.ts).
import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { shownAt, type Thread } from './conversations.js';
import { olderDone, type Older } from './older.js';
import type { OptOutEntry } from './opt-out-book.js';
import { Bubble, Iso, queueOne, refusal, ReplyBox } from './thread-parts.js';
import { useThreadScroll } from './thread-scroll.js';
import { describe } from './api.js';
import { ErrorLine, Note, when, type Call } from './ui.js';

/** The number's place on the opt-out list, and the toggle (opting out is confirmed first). */
function OptOutToggle({
  call,
  thread,
  entry,
  onChanged,
}: {
  call: Call;
  thread: Thread;
  entry: OptOutEntry | undefined;
  onChanged: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const [error, setError] = useState<string>();
  const change = async (optOut: boolean) => {
    try {
      if (optOut) await call('POST', '/api/opt-outs', { number: thread.number });
      else await call('DELETE', `/api/opt-outs/${encodeURIComponent(entry?.number ?? thread.number)}`);
      setError(undefined);
      setAsking(false);
      onChanged();
    } catch (err) {
      setError(describe(err));
    }
  };
  return (
    <div class="optout">
      {entry ? (
        <p class="optout-state" role="status">
          Opted out since {when(entry.at)} ({entry.by === 'sms' ? 'it texted a stop keyword' : `by ${entry.by}`}):
          nothing is sent to it.{' '}
          <button type="button" class="secondary" onClick={() => void change(false)}>
            Opt back in
          </button>
        </p>
      ) : asking ? (
        <div class="confirm" role="group" aria-label="Confirm opting out">
          <p>
            Opt <Iso text={thread.number} /> out? Nothing will be sent to it until it texts START or is opted back in
            here.
          </p>
          <button type="button" class="danger" onClick={() => void change(true)}>
            Yes, opt it out
          </button>{' '}
          <button type="button" class="secondary" onClick={() => setAsking(false)}>
            Keep sending
          </button>
        </div>
      ) : (
        <button type="button" class="secondary" onClick={() => setAsking(true)}>
          Opt out this number…
        </button>
      )}
      <ErrorLine text={error} />
    </div>
  );
}

/** The words of "Load older": while it can read more, while it reads, once the start is reached. */
const OLDER_MESSAGES = ['Load older', 'Loading older…', 'No older messages'] as const;

/**
 * "Load older" above the messages (or below a list); once the start is reached it says so (and keeps the focus: it
 * stays a button).
 */
export function LoadOlder({
  older,
  onLoad,
  words = OLDER_MESSAGES,
}: {
  older: Older;
  onLoad: () => Promise<void>;
  words?: readonly [string, string, string];
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const done = olderDone(older);
  const load = async () => {
    if (busy || done) return;
    setBusy(true);
    try {
      await onLoad();
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="older">
      <button
        type="button"
        class="secondary"
        aria-disabled={busy || done ? 'true' : undefined}
        onClick={() => void load()}
      >
        {done ? words[2] : busy ? words[1] : words[0]}
      </button>
      <ErrorLine text={error} />
    </div>
  );
}

/** Between the messages shown as they were read and the older ones: some before it may be missing. */
const GapMark = () => <li class="gap muted">Earlier messages above may be missing: “Load older” reads them.</li>;

/** The thread's heading: the contact's name (if known), then the number. */
function ThreadTitle({ thread }: { thread: Thread }) {
  return (
    <h2 id="thread-title">
      {thread.contact && (
        <>
          <Iso text={thread.contact} />{' '}
        </>
      )}
      <span class="to">
        <Iso text={thread.number} />
      </span>
    </h2>
  );
}

/**
 * On a phone the list, and the button that opened this thread, are hidden now: the focus comes to the back button,
 * without scrolling up from the newest message (the back button stays in sight, app.css).
 */
function useFocusOnOpen(back: RefObject<HTMLButtonElement | null>) {
  useEffect(() => {
    const at = document.activeElement;
    if (!(at instanceof HTMLElement) || at === document.body || at.offsetParent === null)
      back.current?.focus({ preventScroll: true });
  }, []);
}

/**
 * Where messages may be missing: the index of the first entry from the time the thread is complete (the entries'
 * length if none is), or null when nothing is missing.
 */
function gapIndex(thread: Thread, completeFrom: number | null): number | null {
  const gapAt = completeFrom === null ? -1 : thread.entries.findIndex((e) => shownAt(e) >= completeFrom);
  return gapAt === 0 ? null : gapAt === -1 && completeFrom !== null ? thread.entries.length : gapAt;
}

export function ThreadView(p: {
  call: Call;
  thread: Thread;
  optOut: OptOutEntry | undefined;
  older: Older;
  /** From when on every message of the thread is shown (older.ts completeFrom), or null. */
  completeFrom: number | null;
  onLoadOlder: () => Promise<void>;
  onBack: () => void;
  onChanged: () => void;
}) {
  const { call, thread, optOut, older, completeFrom, onLoadOlder, onBack, onChanged } = p;
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const back = useRef<HTMLButtonElement>(null);
  const section = useRef<HTMLElement>(null);
  useThreadScroll(
    section,
    thread.entries.map((e) => e.message.id),
  );
  useFocusOnOpen(back);
  const gap = gapIndex(thread, completeFrom);
  const sentText = new Map(
    thread.entries.flatMap((e) => (e.kind === 'sent' ? [[e.message.id, e.message.body] as const] : [])),
  );
  const sendAgain = async (m: MessageRecord) => {
    try {
      const record = await queueOne(call, m.to, m.body);
      setError(undefined);
      setNote(`Queued again as a new message (${record.id}).`);
      onChanged();
    } catch (err) {
      setNote(undefined);
      setError(refusal(err, m.to));
    }
  };
  return (
    <section class="thread" aria-labelledby="thread-title" ref={section}>
      <div class="thread-bar">
        <button type="button" class="secondary back" ref={back} onClick={onBack}>
          ← All conversations
        </button>
      </div>
      <ThreadTitle thread={thread} />
      <OptOutToggle call={call} thread={thread} entry={optOut} onChanged={onChanged} />
      <ErrorLine text={error} />
      {note && <Note>{note}</Note>}
      <LoadOlder older={older} onLoad={onLoadOlder} />
      <ol class="bubbles" aria-label="Messages">
        {thread.entries.flatMap((e, i) => [
          ...(i === gap ? [<GapMark key="gap" />] : []),
          <Bubble
            key={e.message.id}
            entry={e}
            answered={e.kind === 'received' && e.message.inReplyTo ? sentText.get(e.message.inReplyTo.id) : undefined}
            optedOut={optOut !== undefined}
            onSendAgain={(m) => void sendAgain(m)}
          />,
        ])}
        {gap !== null && gap > 0 && gap === thread.entries.length && <GapMark key="gap" />}
      </ol>
      <ReplyBox call={call} to={thread.number} onQueued={onChanged} />
    </section>
  );
}
