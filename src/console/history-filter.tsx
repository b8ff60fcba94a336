// The history's filters, also the Conversations' search: status (the history's), a search by
// number or text and a date range (this device's days), all asked of the gateway (GET
// /api/messages and GET /api/inbox q, since, until) once the typing pauses; kept in the address
// (#/history?q=..., #/inbox?q=...) so a reload or a shared link shows the same search; the form.
import { useDebounced } from './debounce.js';

export interface HistoryFilter {
  status: string;
  text: string;
  from: string;
  to: string;
}

export const NO_FILTER: HistoryFilter = { status: '', text: '', from: '', to: '' };
const STATUSES = ['', 'queued', 'sent', 'failed', 'cancelled'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The search is asked of the gateway once the typing has paused this long. */
const TYPING_PAUSE_MS = 300;

/** The start of a YYYY-MM-DD day in this device's zone, `days` later, as ISO (UTC). */
function dayStart(day: string, days = 0): string {
  const [y, m, d] = day.split('-').map(Number);
  return new Date(y!, m! - 1, d! + days).toISOString();
}

/** Why the filter cannot match anything, when that is so (the dates the wrong way round). */
export const impossible = (f: HistoryFilter) => (f.from && f.to && f.from > f.to ? 'The “From” day is after the “To” day: no message can match.' : undefined);

/** The gateway's query for a filter (without limit and offset): status, q, since and until. */
export function historyQuery(f: HistoryFilter): URLSearchParams {
  const q = new URLSearchParams();
  if (f.status) q.set('status', f.status);
  if (f.text.trim()) q.set('q', f.text.trim());
  if (DAY.test(f.from)) q.set('since', dayStart(f.from));
  if (DAY.test(f.to)) q.set('until', dayStart(f.to, 1));
  return q;
}

/** The query as the user types: a typed search once the typing pauses, a cleared one (and every other field) at once. */
export function useFilterQuery(f: HistoryFilter): string {
  const typed = useDebounced(f.text, TYPING_PAUSE_MS);
  return historyQuery({ ...f, text: f.text.trim() === '' ? '' : typed }).toString();
}

/** The filter an address names (#/history?q=...&from=...), or none. */
export function filterFromHash(hash: string): HistoryFilter {
  const at = hash.indexOf('?');
  const p = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const status = p.get('status') ?? '';
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  return { status: (STATUSES as readonly string[]).includes(status) ? status : '', text: p.get('q') ?? '', from: day(p.get('from')), to: day(p.get('to')) };
}

/** Writes the filter into the view's address without a new history entry (nothing is loaded by it). */
export function keepInAddress(f: HistoryFilter, view: 'history' | 'inbox' = 'history'): void {
  const p = new URLSearchParams();
  for (const [name, value] of [
    ['status', f.status],
    ['q', f.text],
    ['from', f.from],
    ['to', f.to],
  ] as const)
    if (value) p.set(name, value);
  const hash = p.toString() === '' ? `#/${view}` : `#/${view}?${p.toString()}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** The filter form: status (unless `withStatus` is false), search, from and to dates; `label` names the search region. */
export function Filters(p: { filter: HistoryFilter; onChange: (f: HistoryFilter) => void; label?: string; withStatus?: boolean }) {
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
        <input id="search" type="search" autocomplete="off" maxLength={100} value={filter.text} onInput={(e) => set({ text: e.currentTarget.value })} />
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
