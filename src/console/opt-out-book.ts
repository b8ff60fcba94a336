// The opt-out list as Conversations knows it, whatever its length. GET /api/opt-outs answers
// 100 entries at most, newest change first. Each poll reads the first page; only when the
// total says there are more is the rest read, a few pages a poll (never a burst), and read
// again only when the first page's total or newest entry changed, or every REREAD_POLLS polls
// (a change deep in the list, from another gateway, may leave both as they were). While the
// rest is read again, the entries already read again stand for their range and the old read
// only for what lies beyond it, so a number taken off the list is not shown listed once passed.
import { threadKey } from './conversations.js';

/** One number on the list (GET /api/opt-outs). */
export interface OptOutEntry {
  number: string;
  at: string;
  by: string;
}

/** The console's call (ui.tsx Call), used here for reading only. */
type Get = <T>(method: 'GET', path: string) => Promise<T>;

const PAGE = 100;
/** Pages read after the first in one poll: a list of 500 is read whole in one poll. */
export const PAGES_A_POLL = 4;
/** Polls (4 s each) after which the rest is read again anyway: about 5 minutes. */
export const REREAD_POLLS = 75;

interface OptOutPage {
  data: OptOutEntry[];
  pagination: { total: number; hasNext: boolean };
}

/** A read of the list past the first page: where it goes on, what it found, the first page's mark when it began. */
interface Walk {
  offset: number;
  found: OptOutEntry[];
  mark: string;
}

export interface OptOutBook {
  /** The entries past the first page, as last read to the end. */
  rest: OptOutEntry[];
  /** The first page's mark (total and newest entry) when `rest` was begun. */
  mark: string;
  /** A read of the rest under way, or null. */
  walk: Walk | null;
  /** Polls since `rest` was read. */
  age: number;
}

const markOf = (page: OptOutPage) => `${page.pagination.total} ${page.data[0]?.number ?? ''} ${page.data[0]?.at ?? ''}`;

/** Whether `e` comes after `last` in the list's order (newest change first, then by number). */
const after = (e: OptOutEntry, last: OptOutEntry) => {
  const [at, lastAt] = [Date.parse(e.at), Date.parse(last.at)];
  return at < lastAt || (at === lastAt && e.number > last.number);
};

/** The listed numbers by thread key: those read in a row from the top, then the older read beyond them. */
export function listedOf(top: OptOutEntry[], older: OptOutEntry[]): Map<string, OptOutEntry> {
  const last = top[top.length - 1];
  const beyond = last ? older.filter((e) => after(e, last)) : older;
  const listed = new Map<string, OptOutEntry>();
  for (const e of [...top, ...beyond]) if (!listed.has(threadKey(e.number))) listed.set(threadKey(e.number), e);
  return listed;
}

/** One poll's read of the list: the first page, and the next pages of the rest when due. */
export async function readOptOuts(
  call: Get,
  book: OptOutBook | undefined,
): Promise<{ book: OptOutBook; listed: Map<string, OptOutEntry> }> {
  const first = await call<OptOutPage>('GET', `/api/opt-outs?limit=${PAGE}`);
  const mark = markOf(first);
  if (!first.pagination.hasNext)
    return { book: { rest: [], mark, walk: null, age: 0 }, listed: listedOf(first.data, []) };
  let rest = book?.rest ?? [];
  let done = book ? book.mark : '';
  let age = (book?.age ?? 0) + 1;
  let walk = book?.walk ?? (done !== mark || age >= REREAD_POLLS ? { offset: PAGE, found: [], mark } : null);
  for (let pages = 0; walk && pages < PAGES_A_POLL; pages++) {
    const page = await call<OptOutPage>('GET', `/api/opt-outs?limit=${PAGE}&offset=${walk.offset}`);
    walk = { offset: walk.offset + page.data.length, found: [...walk.found, ...page.data], mark: walk.mark };
    if (page.pagination.hasNext && page.data.length > 0) continue;
    // Read to the end: a change meanwhile leaves the mark it began with, so the next poll reads again.
    [rest, done, age, walk] = [walk.found, walk.mark, 0, null];
  }
  return { book: { rest, mark: done, walk, age }, listed: listedOf([...first.data, ...(walk?.found ?? [])], rest) };
}
