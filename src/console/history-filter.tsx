// The history's filters, also the Conversations' search: status and a tag (the history's), a
// search by number or text and a date range (this device's days), all asked of the gateway (GET
// /api/messages and GET /api/inbox q, since, until; tag) once the typing pauses; kept in the
// address (#/history?q=...&tag=alarm:home, #/inbox?q=...) so a reload, a sign-in or a shared
// link shows the same search; the form.
import { useDebounced } from './debounce.js';

export interface HistoryFilter {
  status: string;
  text: string;
  from: string;
  to: string;
  /** key:value, the history's only. */
  tag: string;
}

export const NO_FILTER: HistoryFilter = { status: '', text: '', from: '', to: '', tag: '' };
const STATUSES = ['', 'queued', 'sent', 'failed', 'cancelled'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** A tag as the gateway's `tag` takes it: key:value. */
const TAG = /^[A-Za-z0-9_.-]{1,32}:[\s\S]{0,64}$/;
/** The search is asked of the gateway once the typing has paused this long. */
const TYPING_PAUSE_MS = 300;

/** The start of a YYYY-MM-DD day in this device's zone, `days` later, as ISO (UTC). */
function dayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/** Why the filter cannot match anything, when that is so (the dates the wrong way round). */
export const impossible = (f: HistoryFilter) =>
  f.from && f.to && f.from > f.to ? 'The “From” day is after the “To” day: no message can match.' : undefined;

/** The gateway's query for a filter (without limit and offset): status, q, since and until. */
export function historyQuery(f: HistoryFilter): URLSearchParams {
  const q = new URLSearchParams();
  if (f.status) q.set('status', f.status);
  if (f.text.trim()) q.set('q', f.text.trim());
  if (DAY.test(f.from)) q.set('since', dayStart(f.from));
  if (DAY.test(f.to)) q.set('until', dayStart(f.to, 1));
  if (TAG.test(f.tag)) q.set('tag', f.tag);
  return q;
}

/**
 * The query as the user types: a typed search once the typing pauses, a cleared one (and every other field) at once.
 */
export function useFilterQuery(f: HistoryFilter): string {
  const typed = useDebounced(f.text, TYPING_PAUSE_MS);
  return historyQuery({ ...f, text: f.text.trim() === '' ? '' : typed }).toString();
}

/** A view's own parameters kept in its address beside the filter's (the History's page, the open thread). */
type Extra = Record<string, string>;

/** The parameters of an address (#/history?q=...&from=...). */
export function hashParams(hash: string): URLSearchParams {
  const at = hash.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
}

/** The filter an address names (#/history?q=...&from=...&tag=...), or none. */
export function filterFromHash(hash: string): HistoryFilter {
  const p = hashParams(hash);
  const status = p.get('status') ?? '';
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  const tag = p.get('tag') ?? '';
  return {
    status: (STATUSES as readonly string[]).includes(status) ? status : '',
    text: p.get('q') ?? '',
    from: day(p.get('from')),
    to: day(p.get('to')),
    tag: TAG.test(tag) ? tag : '',
  };
}

/** The History's address for one tag (a chip's link). */
export function tagHref(key: string, value: string): string {
  return `#/history?${new URLSearchParams({ tag: `${key}:${value}` }).toString()}`;
}

/** The History's offset an address names (#/history?page=3 with 20 a page: 40), 0 for none. */
export function offsetFromHash(hash: string, limit: number): number {
  const page = Number(hashParams(hash).get('page'));
  return Number.isSafeInteger(page) && page > 1 ? (page - 1) * limit : 0;
}

/**
 * Writes the filter (and the view's own `extra` parameters, e.g. the page) into the view's
 * address without a new history entry (nothing is loaded by it).
 */
export function keepInAddress(f: HistoryFilter, view: 'history' | 'inbox' = 'history', extra: Extra = {}): void {
  const p = new URLSearchParams();
  const pairs: [string, string][] = [
    ['status', f.status],
    ['q', f.text],
    ['from', f.from],
    ['to', f.to],
    ['tag', f.tag],
  ];
  for (const [name, value] of [...pairs, ...Object.entries(extra)]) if (value) p.set(name, value);
  const hash = p.toString() === '' ? `#/${view}` : `#/${view}?${p.toString()}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/**
 * The filter form: status (unless `withStatus` is false), search, from and to dates; `label` names the search region.
 */
export function Filters(p: {
  filter: HistoryFilter;
  onChange: (f: HistoryFilter) => void;
  label?: string;
  withStatus?: boolean;
}) {
  const { filter, onChange, label = 'Filter the history', withStatus = true } = p;
  const set = (part: Partial<HistoryFilter>) => onChange({ ...filter, ...part });
  return (
    <div class="filters" role="search" aria-label={label}>
      {withStatus && (
        <div>
          <label for="status">Status</label>
          <select id="status" value={filter.status} onChange={(e) => set({ status: e.currentTarget.value })}>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s || 'all'}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="wide">
        <label for="search">Search number or text</label>
        <input
          id="search"
          type="search"
          autocomplete="off"
          maxLength={100}
          value={filter.text}
          onInput={(e) => set({ text: e.currentTarget.value })}
        />
      </div>
      <div>
        <label for="from">From</label>
        <input id="from" type="date" value={filter.from} onInput={(e) => set({ from: e.currentTarget.value })} />
      </div>
      <div>
        <label for="to">To</label>
        <input id="to" type="date" value={filter.to} onInput={(e) => set({ to: e.currentTarget.value })} />
      </div>
    </div>
  );
}
