// The console's opt-out list read (src/console/opt-out-book.ts) against a list in memory: the
// first page a poll; the rest a few pages a poll only when the list is longer; read again only
// when the total or the newest entry changed (or after REREAD_POLLS polls); a number taken
// off is not shown listed once the new read passed its place.
import t from 'tap';
import {
  PAGES_A_POLL,
  readOptOuts,
  REREAD_POLLS,
  type OptOutBook,
  type OptOutEntry,
} from '../../src/console/opt-out-book.js';

const entry = (i: number): OptOutEntry => ({
  number: `+1555${String(i).padStart(6, '0')}`,
  at: new Date(1_800_000_000_000 - i * 1000).toISOString(),
  by: 'api',
});

/** GET /api/opt-outs over `list` (newest first), counting the requests. */
function listApi(list: OptOutEntry[]) {
  const asked: string[] = [];
  const call = async <T>(_method: string, path: string): Promise<T> => {
    asked.push(path);
    const q = new URL(path, 'http://x').searchParams;
    const [limit, offset] = [Number(q.get('limit')), Number(q.get('offset') ?? 0)];
    const data = list.slice(offset, offset + limit);
    return { data, pagination: { total: list.length, hasNext: offset + data.length < list.length } } as T;
  };
  return { call, asked };
}

t.test('a list of 100 or fewer: the first page only, every poll', async (t) => {
  const api = listApi([entry(0), entry(1)]);
  const first = await readOptOuts(api.call, undefined);
  t.equal(first.listed.get('1555000001')?.number, '+1555000001', 'by thread key (no +)');
  await readOptOuts(api.call, first.book);
  t.same(api.asked, ['/api/opt-outs?limit=100', '/api/opt-outs?limit=100']);
});

t.test('a long list: read whole a few pages a poll, then the first page only until it changes', async (t) => {
  const list = Array.from({ length: 1000 }, (_, i) => entry(i));
  const api = listApi(list);
  let book: OptOutBook | undefined;
  let listed: Map<string, OptOutEntry>;
  let polls = 0;
  do {
    const before = api.asked.length;
    ({ book, listed } = await readOptOuts(api.call, book));
    t.ok(api.asked.length - before <= 1 + PAGES_A_POLL, 'never more than a few requests a poll');
    polls++;
  } while (book.walk && polls < 10);
  t.equal(polls, Math.ceil(9 / PAGES_A_POLL), 'the 9 pages past the first, a few a poll');
  t.equal(listed.size, 1000, 'all of them');
  t.ok(listed.has('1555000999'), 'the oldest entry');
  const before = api.asked.length;
  ({ book } = await readOptOuts(api.call, book));
  t.equal(api.asked.length - before, 1, 'unchanged: the first page only');

  // A number deep in the list is taken off: the total changes, the rest is read again.
  list.splice(950, 1);
  ({ book } = await readOptOuts(api.call, book));
  while (book.walk) ({ book, listed } = await readOptOuts(api.call, book));
  t.notOk(listed.has('1555000950'), 'read again past it: not listed');
  t.equal(listed.size, 999);
});

t.test('an unchanged long list is read again after REREAD_POLLS polls', async (t) => {
  const api = listApi(Array.from({ length: 150 }, (_, i) => entry(i)));
  let { book } = await readOptOuts(api.call, undefined);
  const before = api.asked.length;
  for (let i = 0; i < REREAD_POLLS; i++) ({ book } = await readOptOuts(api.call, book));
  t.equal(api.asked.length - before, REREAD_POLLS + 1, 'the first page each poll, and the rest once');
});
