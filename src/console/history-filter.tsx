// The history's filters: status, a search by number or text and a date range (this device's
// days), all asked of the gateway (GET /api/messages q, since, until); kept in the address
// (#/history?q=...) so a reload or a shared link shows the same search; the filter form.
export interface HistoryFilter {
  status: string;
  text: string;
  from: string;
  to: string;
}

export const NO_FILTER: HistoryFilter = { status: '', text: '', from: '', to: '' };
const STATUSES = ['', 'queued', 'sent', 'failed', 'cancelled'] as const;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

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

/** The filter an address names (#/history?q=...&from=...), or none. */
export function filterFromHash(hash: string): HistoryFilter {
  const at = hash.indexOf('?');
  const p = new URLSearchParams(at < 0 ? '' : hash.slice(at + 1));
  const status = p.get('status') ?? '';
  const day = (v: string | null) => (v && DAY.test(v) ? v : '');
  return { status: (STATUSES as readonly string[]).includes(status) ? status : '', text: p.get('q') ?? '', from: day(p.get('from')), to: day(p.get('to')) };
}

/** Writes the filter into the address without a new history entry (nothing is loaded by it). */
export function keepInAddress(f: HistoryFilter): void {
  const p = new URLSearchParams();
  for (const [name, value] of [
    ['status', f.status],
    ['q', f.text],
    ['from', f.from],
    ['to', f.to],
  ] as const)
    if (value) p.set(name, value);
  const hash = p.toString() === '' ? '#/history' : `#/history?${p.toString()}`;
  if (location.hash !== hash) history.replaceState(null, '', hash);
}

/** The filter form: status, search, from and to dates. */
export function Filters({ filter, onChange }: { filter: HistoryFilter; onChange: (f: HistoryFilter) => void }) {
  const set = (part: Partial<HistoryFilter>) => onChange({ ...filter, ...part });
  return (
    <div class="filters" role="search" aria-label="Filter the history">
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
