// History: every message, 20 a page, newest first, filtered by status and a tag and searched by
// number or text and a date range by the gateway (history-filter.tsx; asked once the typing
// pauses, kept in the address with the page, followed when a tag's link changes it); "Export
// CSV" saves every message of the filter (history-export.ts); the list (message-list.tsx).
import { useEffect, useRef, useState } from 'preact/hooks';
import { describe } from './api.js';
import { exportHistory } from './history-export.js';
import {
  filterFromHash,
  Filters,
  historyQuery,
  impossible,
  keepInAddress,
  useFilterQuery,
  type HistoryFilter,
} from './history-filter.js';
import { offsetFromHash as pageOf } from './history-filter.js';
import { MessageList, type ConsoleMessage } from './message-list.js';
import { usePoll } from './poll.js';
import { ErrorLine, Note, type Call, type ViewProps } from './ui.js';

interface Page {
  data: ConsoleMessage[];
  pagination: { limit: number; offset: number; total: number; hasNext: boolean };
}

const LIMIT = 20;

/** The offset the address's page names. */
const offsetFromHash = (hash: string) => pageOf(hash, LIMIT);

/** The time a line shows: when the message was accepted. */
const createdAt = (m: ConsoleMessage) => m.createdAt;

/** Newer and older pages of the history, and where this one is. */
function Pager(p: {
  offset: number;
  loaded: number;
  limit: number;
  total: number;
  hasNext: boolean;
  onOffset: (offset: number) => void;
}) {
  const { offset, loaded, limit, total, hasNext, onOffset } = p;
  return (
    <nav class="pager" aria-label="Pages">
      <button
        type="button"
        class="secondary"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
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

/** "Export CSV": every message of the shown filter, with a note saying how many. */
function ExportButton({ call, query, onError }: { call: Call; query: string; onError: (text: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<string>();
  const save = async () => {
    setBusy(true);
    setNote(undefined);
    try {
      const { saved, total } = await exportHistory(call, new URLSearchParams(query));
      setNote(
        saved < total
          ? `Exported the newest ${saved} of ${total} messages.`
          : `Exported ${saved} message${saved === 1 ? '' : 's'}.`,
      );
    } catch (err) {
      onError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" class="secondary" disabled={busy} onClick={() => void save()}>
        {busy ? 'Exporting…' : 'Export CSV'}
      </button>
      {note && <Note>{note}</Note>}
    </>
  );
}

/** The tag the list is filtered by, with a button that removes it. */
function TagFilter({ tag, onClear }: { tag: string; onClear: () => void }) {
  const shown = tag.replace(':', '=');
  return (
    <span class="tag-filter">
      Tagged <span class="chip">{shown}</span>
      <button type="button" class="secondary" onClick={onClear} aria-label={`Show every tag, not only ${shown}`}>
        ✕
      </button>
    </span>
  );
}

export function History({ call }: ViewProps) {
  const [filter, setFilter] = useState<HistoryFilter>(() => filterFromHash(location.hash));
  const [offset, setOffset] = useState(() => offsetFromHash(location.hash));
  const [shown, setShown] = useState<{ query: string; page: Page }>();
  const [error, setError] = useState<string>();
  const query = useFilterQuery(filter);
  const blocked = impossible(filter);
  const asked = useRef('');
  useEffect(() => {
    keepInAddress(filter, 'history', { page: offset > 0 ? String(offset / LIMIT + 1) : '' });
  }, [filter, offset]);
  useEffect(() => {
    // A tag's link (or the browser's back) changes the address: the list follows it.
    const onHash = () => {
      if (!location.hash.startsWith('#/history')) return;
      setFilter(filterFromHash(location.hash));
      setOffset(offsetFromHash(location.hash));
    };
    addEventListener('hashchange', onHash);
    return () => removeEventListener('hashchange', onHash);
  }, []);
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
  const searching = shown && shown.query !== query;
  const status = blocked ?? (searching ? 'Searching…' : query && page ? `${page.pagination.total} matching.` : '');
  const change = (f: HistoryFilter) => {
    setOffset(0);
    setFilter(f);
  };
  return (
    <section class="history">
      <h1>History</h1>
      <Filters filter={filter} onChange={change} />
      <div class="toolbar">
        {filter.tag && <TagFilter tag={filter.tag} onClear={() => change({ ...filter, tag: '' })} />}
        {/* The filter as typed, not the debounced query: pressed right after typing, it exports what was typed. */}
        <ExportButton call={call} query={historyQuery(filter).toString()} onError={setError} />
        <span class="muted" role="status">
          {status}
        </span>
      </div>
      <ErrorLine text={error} />
      {page && page.data.length === 0 && <p>No message here.</p>}
      {page && page.data.length > 0 && <MessageList messages={page.data} timeOf={createdAt} label="Messages" />}
      {page && (
        <Pager
          offset={offset}
          loaded={page.data.length}
          limit={LIMIT}
          total={page.pagination.total}
          hasNext={page.pagination.hasNext}
          onOffset={setOffset}
        />
      )}
    </section>
  );
}
