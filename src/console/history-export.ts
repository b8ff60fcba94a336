// The history's CSV export: every message of the current filter, not only the page shown
// (all its pages, 100 a request, at most EXPORT_MAX messages), saved as history.csv with
// csv.ts (formula-safe). A message arriving while it reads shifts the pages: one seen twice is kept once.
// Its tags are one column (key=value; key=value), its origin another (empty when the gateway does not say).
import { downloadCsv, toCsv } from './csv.js';
import type { ConsoleMessage as MessageRecord } from './message-list.js';
import type { Call } from './ui.js';

/** The most messages one export holds (ten requests: well inside the gateway's rate limit). */
export const EXPORT_MAX = 1000;
const PAGE = 100;
const RECORD_FIELDS = ['id', 'status', 'reason', 'to', 'body', 'segments'] as const;
const CSV_COLUMNS = [...RECORD_FIELDS, 'createdAt', 'updatedAt', 'sendAt', 'tags', 'origin'] as const;

/** One message's cells, in the columns' order. */
const cells = (m: MessageRecord) =>
  CSV_COLUMNS.map((c) =>
    c === 'tags'
      ? Object.entries(m.tags)
          .map(([k, v]) => `${k}=${v}`)
          .join('; ')
      : String(m[c] ?? ''),
  );

interface Page {
  data: MessageRecord[];
  pagination: { total: number; hasNext: boolean };
}

/** Reads every page of the filter (status, q, since, until) and downloads it; answers how many it held of how many. */
export async function exportHistory(call: Call, filter: URLSearchParams): Promise<{ saved: number; total: number }> {
  const byId = new Map<string, MessageRecord>();
  let total = 0;
  for (let offset = 0; byId.size < EXPORT_MAX; offset += PAGE) {
    const query = new URLSearchParams(filter);
    query.set('limit', String(PAGE));
    query.set('offset', String(offset));
    const page = await call<Page>('GET', `/api/messages?${query.toString()}`);
    for (const m of page.data) byId.set(m.id, m);
    total = page.pagination.total;
    if (!page.pagination.hasNext || page.data.length === 0) break;
  }
  const messages = [...byId.values()].slice(0, EXPORT_MAX);
  const rows = messages.map(cells);
  downloadCsv('history.csv', toCsv([CSV_COLUMNS, ...rows]));
  return { saved: messages.length, total };
}
