// The pieces of an open conversation: a name, number or text in its own direction-isolated
// box with its invisible characters shown; one message as a bubble (received or sent, what it
// answers: the question's text when loaded, else "an earlier message", with its tags as chips
// and its id as a tooltip; "Send again" on a failed one, but not on one refused for an opt-out
// while the number is still opted out: it would be refused again); the reply box that queues.
import { useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { ApiProblem, describe } from './api.js';
import { visible, visibleText, type ThreadEntry } from './conversations.js';
import { TagChips } from './chips.js';
import { ErrorLine, Note, when, type Call } from './ui.js';

/** Attacker-controlled text: its own box (<bdi>), invisible characters as ⟨U+XXXX⟩. */
export function Iso({ text, kind = 'name' }: { text: string; kind?: 'name' | 'body' }) {
  return <bdi class={kind === 'body' ? 'body' : 'iso'}>{kind === 'body' ? visibleText(text) : visible(text)}</bdi>;
}

/** What the console says when a reply or a send again is not queued. */
export function refusal(err: unknown, to: string): string {
  if (err instanceof ApiProblem && err.problem.kind === 'error' && err.problem.code === 'recipient_opted_out')
    return optedOutText(to);
  return describe(err);
}
const optedOutText = (to: string) =>
  `Not sent: ${visible(to)} is on the opt-out list (it texted STOP, or it was opted out here). Opt it back in above ` +
  `to send to it again.`;

/** POST /api/messages for one number: the new record, or the reason it was not queued (thrown). */
export async function queueOne(call: Call, to: string, message: string): Promise<MessageRecord> {
  const res = await call<{ data: MessageRecord[] }>('POST', '/api/messages', { to, message });
  const record = res.data[0];
  if (!record) throw new Error('The gateway queued nothing.');
  if (record.status === 'failed' && record.reason === 'opted_out') throw new Error(optedOutText(to));
  return record;
}

/**
 * One message of the thread (data-id: its id, thread-scroll.ts); `answered` is the text of the sent message a reply
 * answers, when loaded.
 */
export function Bubble(p: {
  entry: ThreadEntry;
  answered: string | undefined;
  /** The number is on the opt-out list now. */
  optedOut: boolean;
  onSendAgain: (m: MessageRecord) => void;
}) {
  const { entry, answered, optedOut, onSendAgain } = p;
  if (entry.kind === 'received') {
    const reply = entry.message.inReplyTo;
    return (
      <li class="bubble bubble-in" data-id={entry.message.id}>
        {reply && (
          <div class="answers muted" title={`Message ${reply.id}`}>
            In reply to {answered === undefined ? 'an earlier message' : <Iso text={answered} kind="body" />}
            <TagChips tags={reply.tags} />
          </div>
        )}
        <Iso text={entry.message.body} kind="body" />
        <div class="meta muted">Received {when(entry.message.receivedAt)}</div>
      </li>
    );
  }
  const m = entry.message;
  return (
    <li class="bubble bubble-out" data-id={m.id}>
      <Iso text={m.body} kind="body" />
      <div class="meta muted">
        <span class={`badge badge-${m.status}`}>{m.status}</span>
        {m.reason ? ` (${m.reason}) ` : ' '}
        {when(m.createdAt)}
      </div>
      {m.status === 'failed' && !(m.reason === 'opted_out' && optedOut) && (
        <button type="button" class="secondary" onClick={() => onSendAgain(m)}>
          Send again
        </button>
      )}
    </li>
  );
}

/** The reply box: queues the reply to the thread's number, clears on success, says why not on failure. */
export function ReplyBox({ call, to, onQueued }: { call: Call; to: string; onQueued: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!text || busy) return;
    setBusy(true);
    setNote(undefined);
    try {
      await queueOne(call, to, text);
      setText('');
      setError(undefined);
      setNote('Reply queued.');
      onQueued();
    } catch (err) {
      setError(refusal(err, to));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="reply" onSubmit={(e) => void submit(e)}>
      <label for="reply">Reply</label>
      <textarea id="reply" rows={2} value={text} onInput={(e) => setText(e.currentTarget.value)} />
      <button type="submit" disabled={busy || !text}>
        Queue reply
      </button>
      <ErrorLine text={error} />
      {note && <Note>{note}</Note>}
    </form>
  );
}
