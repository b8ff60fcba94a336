// The statements the hand-off lane's picks and the expiry really run (captured as the queue
// store prepares them) read the waiting messages' partial indexes, never every queued row
// sorted in a temporary b-tree, so a pick costs the same with 10 or 10 000 waiting
// (EXPLAIN QUERY PLAN).
import t from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { createMessageStore } from '../../src/store/messages.js';
import { createQueueStore } from '../../src/store/queue.js';
import { createStatsStore } from '../../src/store/stats.js';
import { tempDir } from '../helpers/paths.js';

t.test('the pick and the expiry read the partial indexes, with no sort', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const messages = createMessageStore(db, createStatsStore(db));
  const prepare = db.prepare.bind(db);
  const prepared: string[] = [];
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  createQueueStore(db, messages);
  const plan = (sql: string) =>
    (prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ now: 1, limit: 1, offset: 0 }) as { detail: string }[])
      .map((r) => r.detail)
      .join(' | ');
  const picks = prepared.filter((sql) => /LIMIT 1$/.test(sql.trim()));
  t.equal(picks.length, 2, 'the earliest due and the due one of highest priority');
  for (const sql of picks) {
    t.match(plan(sql), /^SCAN messages USING INDEX messages_waiting(_priority)?$/, sql);
  }
  const expiry = prepared.filter((sql) => sql.includes('expires_at IS NOT NULL'));
  t.equal(expiry.length, 2, 'the next expiry and what expired');
  for (const sql of expiry) {
    t.match(plan(sql), /USING (COVERING )?INDEX messages_expiring/, sql);
    t.notMatch(plan(sql), /TEMP B-TREE/, sql);
  }
});
