// History: every message, 20 a page, newest first, filtered by status and searched by number
// or text and a date range by the gateway (history-filter.tsx; asked once the typing pauses,
// kept in the address); "Export CSV" saves every message of the filter (history-export.ts);
// one message's details.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { describe } from './api.js';
import { exportHistory } from './history-export.js';
import { filterFromHash, Filters, historyQuery, impossible, keepInAddress, useFilterQuery, type HistoryFilter } from './history-filter.js';
import { usePoll } from './poll.js';
import { ErrorLine, Field, Note, when, type Call, type ViewProps } from './ui.js';

interface Page {
  data: MessageRecord[];
  pagination: { limit: number; offset: number; total: number; hasNext: boolean };
}

const LIMIT = 20;

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

/** The messages of one page; "Details" opens one. */
function Rows({ messages, onDetails }: { messages: MessageRecord[]; onDetails: (id: string) => void }) {
  return (
    <ul class="list">
      {messages.map((m) => (
        <li key={m.id} class="item">
          <div class="meta">
            <span class={`badge badge-${m.status}`}>{m.status}</span> <span class="to">{m.to}</span> <span class="muted">{when(m.updatedAt)}</span>
          </div>
          <p class="body">{m.body}</p>
          <button type="button" class="secondary" onClick={() => onDetails(m.id)} aria-label={`Details of the message to ${m.to}`}>
            Details
          </button>
        </li>
      ))}
    </ul>
  );
}

/** "Export CSV": every message of the shown filter, with a note saying how many. */
function ExportButton({ call, query, onError }: { call: Call; query: string; onError: (text: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  const save = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      const { saved, total } = await exportHistory(call, new URLSearchParams(query));
      setNote(saved < total ? `Exported the newest ${saved} of ${total} messages.` : `Exported ${saved} message${saved === 1 ? '' : 's'}.`);
    } catch (err) {
      onError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="row">
      <button type="button" class="secondary" disabled={busy} onClick={() => void save()}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {note && <Note>{note}</Note>}
    </div>
  );
}

export function History({ call }: ViewProps) {
  const [filter, setFilter] = useState<HistoryFilter>(() => filterFromHash(location.hash));
  const [offset, setOffset] = useState(0);
  const [shown, setShown] = useState<{ query: string; page: Page }>();
  const [open, setOpen] = useState<MessageRecord>();
  const [error, setError] = useState<string>();
  const query = useFilterQuery(filter);
  const blocked = impossible(filter);
  const asked = useRef('');
  useEffect(() => keepInAddress(filter), [filter]);
  usePoll(async () => {
    if (blocked) return;
    const url = `/api/messages?${query}${query ? '&' : ''}limit=${LIMIT}&offset=${offset}`;
    asked.current = url;
    try {
      const page = await call<Page>('GET', url);
      if (asked.current !== url) return; // a newer search was asked meanwhile
      setShown({ query, page });
      setError(undefined);
    } catch (err) {
      if (asked.current === url) setError(describe(err));
    }
  }, [query, offset, blocked]);
  const page = blocked ? undefined : shown?.page;
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
          setOffset(0);
          setFilter(f);
        }}
      />
      {/* The filter as typed, not the debounced query: pressed right after typing, it exports what was typed. */}
      <ExportButton call={call} query={historyQuery(filter).toString()} onError={setError} />
      <p class="muted" role="status">
        {blocked ?? (shown && shown.query !== query ? 'Searching…' : query && page ? `${page.pagination.total} matching.` : '')}
      </p>
      <ErrorLine text={error} />
      {open && <MessageDetails message={open} onClose={() => setOpen(undefined)} />}
      {page && page.data.length === 0 && <p>No message here.</p>}
      {page && <Rows messages={page.data} onDetails={(id) => void details(id)} />}
      {page && (
        <Pager offset={offset} loaded={page.data.length} limit={LIMIT} total={page.pagination.total} hasNext={page.pagination.hasNext} onOffset={setOffset} />
      )}
    </section>
  );
}
