// The history's filters: status (asked of the gateway), and a search by number or text and
// a date range (this device's days) applied to the messages loaded; the rows shown as CSV.
import type { MessageRecord } from '../store/message-record.js';
import { downloadCsv, toCsv } from './csv.js';

export interface HistoryFilter {
  status: string;
  text: string;
  from: string;
  to: string;
}

export const NO_FILTER: HistoryFilter = { status: '', text: '', from: '', to: '' };
const STATUSES = ['', 'queued', 'sent', 'failed', 'cancelled'] as const;

/** True when the search or the date range is set (both are applied in the browser). */
export const searching = (f: HistoryFilter) => f.text.trim() !== '' || f.from !== '' || f.to !== '';

/** YYYY-MM-DD of an ISO time in this device's zone, as a date input gives it. */
function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** Whether a message passes the search (its number or its text) and the date range (its creation day). */
export function matches(m: MessageRecord, f: HistoryFilter): boolean {
  const query = f.text.trim().toLowerCase();
  if (query) {
    const digits = query.replace(/[\s().-]/g, '');
    if (!m.body.toLowerCase().includes(query) && !(digits !== '' && m.to.toLowerCase().includes(digits))) return false;
  }
  const day = localDay(m.createdAt);
  return (!f.from || day >= f.from) && (!f.to || day <= f.to);
}

const CSV_COLUMNS = ['id', 'status', 'reason', 'to', 'body', 'segments', 'createdAt', 'updatedAt', 'sendAt'] as const;

/** Downloads the messages shown as history.csv. */
export function exportCsv(shown: MessageRecord[]): void {
  const rows = shown.map((m) => CSV_COLUMNS.map((c) => String(m[c] ?? '')));
  downloadCsv('history.csv', toCsv([CSV_COLUMNS, ...rows]));
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
        <input id="search" type="search" autocomplete="off" value={filter.text} onInput={(e) => set({ text: e.currentTarget.value })} />
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
