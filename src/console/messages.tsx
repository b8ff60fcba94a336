// Queue (waiting messages, cancel after a confirmation) and history (filters, paging, CSV
// export, one message's details): both read GET /api/messages, refreshed while visible.
import { useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { describe } from './api.js';
import { usePoll } from './poll.js';
import { exportCsv, Filters, matches, NO_FILTER, searching, type HistoryFilter } from './history-filter.js';
import { Confirm, ErrorLine, Field, Note, when, type ViewProps } from './ui.js';

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

const LIMIT = 20;
/** While searching, pages are this big: the search runs over the messages loaded. */
const SEARCH_LIMIT = 100;

/** One message's fields, opened from the history. */
function MessageDetails({ message, onClose }: { message: MessageRecord; onClose: () => void }) {
  return (
    <div class="details" role="region" aria-label="Message details">
      <h2>Message {message.id}</h2>
      <dl>
        <Field label="To" value={message.to} />
        <Field label="Status" value={`${message.status}${message.reason ? ` (${message.reason})` : ''}`} />
        <Field label="Text" value={<span class="body">{message.body}</span>} />
        <Field label="Segments" value={`${message.segments} (${message.encoding}), billed ${message.billedSegments}`} />
        <Field label="SIM" value={String(message.simSlot)} />
        <Field label="From address" value={message.sourceIp} />
        <Field label="Created" value={when(message.createdAt)} />
        <Field label="Updated" value={when(message.updatedAt)} />
        <Field label="Send at" value={when(message.sendAt)} />
        <Field label="Expires" value={when(message.expiresAt)} />
      </dl>
      <button type="button" class="secondary" onClick={onClose}>
        Close details
      </button>
    </div>
  );
}

/** Newer and older pages of the history, and where this one is. */
function Pager(p: { offset: number; loaded: number; limit: number; total: number; hasNext: boolean; onOffset: (offset: number) => void }) {
  const { offset, loaded, limit, total, hasNext, onOffset } = p;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" class="secondary" disabled={offset === 0} onClick={() => onOffset(Math.max(0, offset - limit))}>
        Newer
      </button>
      <span>
        {total === 0 ? '0' : `${offset + 1}–${offset + loaded}`} of {total}
      </span>
      <button type="button" class="secondary" disabled={!hasNext} onClick={() => onOffset(offset + limit)}>
        Older
      </button>
    </nav>
  );
}

export function History({ call }: ViewProps) {
  const [filter, setFilter] = useState<HistoryFilter>(NO_FILTER);
  const [offset, setOffset] = useState(0);
  const [page, setPage] = useState<Page>();
  const [open, setOpen] = useState<MessageRecord>();
  const [error, setError] = useState<string>();
  const limit = searching(filter) ? SEARCH_LIMIT : LIMIT;
  usePoll(async () => {
    try {
      setPage(await call<Page>('GET', `/api/messages?limit=${limit}&offset=${offset}${filter.status ? `&status=${filter.status}` : ''}`));
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  }, [filter.status, offset, limit]);
  const shown = page?.data.filter((m) => matches(m, filter));
  const details = async (id: string) => {
    try {
      setOpen((await call<{ data: MessageRecord }>('GET', `/api/messages/${encodeURIComponent(id)}`)).data);
    } catch (err) {
      setError(describe(err));
    }
  };
  return (
    <section>
      <h1>History</h1>
      <Filters
        filter={filter}
        onChange={(f) => {
          if (f.status !== filter.status || searching(f) !== searching(filter)) setOffset(0);
          setFilter(f);
        }}
      />
      <div class="row">
        <button type="button" class="secondary" disabled={!shown} onClick={() => shown && exportCsv(shown)}>
          Export CSV
        </button>
        {page && searching(filter) && <span class="muted">Searching the {page.data.length} messages of this page.</span>}
      </div>
      <ErrorLine text={error} />
      {open && <MessageDetails message={open} onClose={() => setOpen(undefined)} />}
      {shown && shown.length === 0 && <p>No message here.</p>}
      <ul class="list">
        {shown?.map((m) => (
          <li key={m.id} class="item">
            <div class="meta">
              <span class={`badge badge-${m.status}`}>{m.status}</span> <span class="to">{m.to}</span> <span class="muted">{when(m.updatedAt)}</span>
            </div>
            <p class="body">{m.body}</p>
            <button type="button" class="secondary" onClick={() => void details(m.id)} aria-label={`Details of the message to ${m.to}`}>
              Details
            </button>
          </li>
        ))}
      </ul>
      {page && (
        <Pager offset={offset} loaded={page.data.length} limit={limit} total={page.pagination.total} hasNext={page.pagination.hasNext} onOffset={setOffset} />
      )}
    </section>
  );
}
