// Queue: the waiting messages (GET /api/messages?status=queued), refreshed while visible, in
// the History's list (message-list.tsx: the time a line shows is when it is due); cancel one
// after a confirmation. The history is history.tsx.
import { useState } from 'preact/hooks';
import { describe } from './api.js';
import { MessageList, type ConsoleMessage } from './message-list.js';
import { usePoll } from './poll.js';
import { Confirm, ErrorLine, Note, type ViewProps } from './ui.js';

type MessageRecord = ConsoleMessage;

interface Page {
  data: MessageRecord[];
  pagination: { limit: number; offset: number; total: number; hasNext: boolean };
}

/** The time a line shows: when it is due (null: as soon as the pace allows). */
const dueAt = (m: MessageRecord) => m.sendAt;

/** A line's Cancel: asks first (the Confirm above the list). */
function CancelButton({ m, onAsk }: { m: MessageRecord; onAsk: () => void }) {
  const name = `Cancel the message to ${m.to}`;
  return (
    <button type="button" class="secondary msg-action" onClick={onAsk} aria-label={name}>
      Cancel
    </button>
  );
}

export function Queue({ call }: ViewProps) {
  const [page, setPage] = useState<Page>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [asking, setAsking] = useState<MessageRecord>();
  const load = async () => {
    try {
      setPage(await call<Page>('GET', '/api/messages?status=queued&limit=100'));
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  };
  usePoll(load, []);
  const cancel = async (m: MessageRecord) => {
    setAsking(undefined);
    try {
      await call('DELETE', `/api/messages/${encodeURIComponent(m.id)}`);
      setNote(`Cancelled the message to ${m.to}.`);
      await load();
    } catch (err) {
      setError(describe(err));
    }
  };
  const waiting = page?.data ?? [];
  const ask = (m: MessageRecord) => <CancelButton m={m} onAsk={() => setAsking(m)} />;
  return (
    <section>
      <h1>Queue</h1>
      <ErrorLine text={error} />
      {note && <Note>{note}</Note>}
      {page && page.data.length === 0 && <p>No message is waiting.</p>}
      {asking && (
        <Confirm
          question={`Cancel the message to ${asking.to}? It will not be sent.`}
          action="Cancel the message"
          onConfirm={() => void cancel(asking)}
          onCancel={() => setAsking(undefined)}
        />
      )}
      {waiting.length > 0 && <MessageList messages={waiting} timeOf={dueAt} label="Waiting messages" after={ask} />}
    </section>
  );
}
