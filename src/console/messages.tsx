// Queue: the waiting messages (GET /api/messages?status=queued), refreshed while visible;
// cancel one after a confirmation. The history is history.tsx.
import { useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { describe } from './api.js';
import { usePoll } from './poll.js';
import { Confirm, ErrorLine, Note, when, type ViewProps } from './ui.js';

interface Page {
  data: MessageRecord[];
  pagination: { limit: number; offset: number; total: number; hasNext: boolean };
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
      <ul class="list">
        {page?.data.map((m) => (
          <li key={m.id} class="item">
            <div class="meta">
              <span class="to">{m.to}</span> <span class="muted">{m.sendAt ? `at ${when(m.sendAt)}` : 'as soon as the pace allows'}</span>
            </div>
            <p class="body">{m.body}</p>
            <button type="button" class="secondary" onClick={() => setAsking(m)} aria-label={`Cancel the message to ${m.to}`}>
              Cancel
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
