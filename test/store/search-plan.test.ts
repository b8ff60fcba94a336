// The statements a search of the history really runs (captured as the store prepares them)
// take a date range from the time index, with or without a status and a q (EXPLAIN QUERY
// PLAN), and are prepared once per shape, not once per request.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { createMessageStore } from '../../src/store/messages.js';
import { createStatsStore } from '../../src/store/stats.js';
import { createInboxStore } from '../../src/store/inbox.js';
import { tempDir } from '../helpers/paths.js';

/** A value for every parameter a search statement can name (unused ones are ignored). */
const ANY_VALUES = {
  since: 1,
  until: 2,
  status: 'sent',
  qText: '%a%',
  qNumber: '49%',
  key: '49',
  limit: 20,
  offset: 0,
};

function open(t: Test) {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const prepared: string[] = [];
  const messages = createMessageStore(db, createStatsStore(db));
  const inbox = createInboxStore(db);
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  const plan = (sql: string) =>
    (prepare(`EXPLAIN QUERY PLAN ${sql}`).all(ANY_VALUES) as { detail: string }[]).map((r) => r.detail).join(' | ');
  return { db, messages, inbox, prepared, plan };
}

t.test('a date range uses the index on the creation time (and status with it)', async (t) => {
  const { messages, prepared, plan } = open(t);
  const range = { since: Date.UTC(2026, 10, 1), until: Date.UTC(2026, 11, 1) };
  messages.list({ limit: 20, offset: 0, ...range });
  t.equal(prepared.length, 2, 'the page and its count');
  for (const sql of prepared)
    t.match(
      plan(sql),
      /SEARCH messages USING (COVERING )?INDEX messages_newest \(created_at>\? AND created_at<\?\)/,
      sql,
    );
  prepared.length = 0;
  messages.list({ limit: 20, offset: 0, status: 'sent', q: 'garage', ...range });
  t.equal(prepared.length, 2);
  for (const sql of prepared)
    t.match(
      plan(sql),
      /SEARCH messages USING (COVERING )?INDEX messages_status_newest \(status=\? AND created_at>\? AND created_at<\?\)/,
      sql,
    );
  prepared.length = 0;
  messages.list({ limit: 20, offset: 0, q: '+4915', since: range.since });
  t.match(
    plan(prepared[0]!),
    /SEARCH messages USING INDEX messages_newest \(created_at>\?\)/,
    'since alone, with a number',
  );
  t.notMatch(plan(prepared[0]!), /TEMP B-TREE/, 'no sort: the index gives the order');
});

t.test('each shape is prepared once, whatever the values', async (t) => {
  const { messages, inbox, prepared } = open(t);
  for (const q of ['a', 'b', '%', '+49', '555']) messages.list({ limit: 5, offset: 0, q, since: 1, until: 2 });
  for (const q of ['a', 'b', '%', '+49', '555']) inbox.list({ limit: 5, offset: 0, q, from: '+49' });
  t.equal(prepared.length, 8, 'text and number q, page and count, for each store');
});
