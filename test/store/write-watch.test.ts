// store/write-watch.ts with storage health: every statement that writes reports (reads do
// not), a transaction's writes report once at its commit and not at all when it rolls back
// for a reason of its own, the disk's refusal reports at once; and storage health clears
// its error a microtask after a committed write unless a failure came after it.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { transaction } from '../../src/store/transaction.js';
import { watchWrites } from '../../src/store/write-watch.js';
import { createStorageHealth } from '../../src/sms/storage-health.js';
import { fakeClock, letSettle } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';

function watched(t: Test) {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const seen: string[] = [];
  const stop = watchWrites(db, {
    failed: (err) => seen.push(`failed ${(err as { code: string }).code}`),
    succeeded: () => seen.push('ok'),
  });
  const write = db.prepare(
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const read = db.prepare(`SELECT value FROM meta WHERE key = ?`);
  return { db, seen, stop, write, read };
}

t.test('statements and transactions report their writes', async (t) => {
  const { db, seen, stop, write, read } = watched(t);
  read.get('a');
  t.same(seen, [], 'a read reports nothing');
  db.prepare(`DELETE FROM meta WHERE key = 'none such'`).run();
  t.same(seen, [], 'a write that changed no row reports nothing');
  write.run('a', '1');
  t.same(seen, ['ok'], 'a write outside a transaction: committed at once');
  seen.length = 0;
  transaction(db, () => {
    write.run('b', '1');
    write.run('c', '1');
    t.same(seen, [], 'nothing before the commit');
  })();
  t.same(seen, ['ok'], 'once, at the commit');
  seen.length = 0;
  t.throws(() =>
    transaction(db, () => {
      write.run('d', '1');
      throw new Error('changed its mind');
    })(),
  );
  transaction(db, () => read.get('a'))();
  t.same(seen, [], 'a rollback of its own, and a transaction that only read: nothing');
  db.pragma('query_only = ON');
  t.throws(() => write.run('e', '1'));
  t.same(seen, ['failed SQLITE_READONLY'], 'the refusal at once');
  seen.length = 0;
  t.throws(() => transaction(db, () => write.run('f', '1'))());
  t.ok(seen.length > 0 && seen.every((s) => s === 'failed SQLITE_READONLY'), 'inside a transaction too');
  db.pragma('query_only = OFF');
  stop();
  seen.length = 0;
  write.run('g', '1');
  t.same(seen, [], 'stopped watching');
});

t.test('storage health: a committed write clears the error, unless a failure followed it', async (t) => {
  const { db, write } = watched(t);
  const storage = createStorageHealth(fakeClock());
  watchWrites(db, storage.writes);
  db.pragma('query_only = ON');
  t.throws(() => write.run('a', '1'));
  t.equal(storage.error()?.code, 'SQLITE_READONLY');
  db.pragma('query_only = OFF');
  write.run('a', '1');
  db.pragma('query_only = ON');
  t.throws(() => write.run('b', '1'));
  await letSettle();
  t.equal(storage.error()?.code, 'SQLITE_READONLY', 'the later failure stands');
  db.pragma('query_only = OFF');
  write.run('b', '1');
  await letSettle();
  t.equal(storage.error(), null, 'cleared by the next write');
  let retried = 0;
  storage.holdWritesWith(() => ++retried && 1); // one write still waits
  db.pragma('query_only = ON');
  t.throws(() => write.run('c', '1'));
  db.pragma('query_only = OFF');
  write.run('c', '1');
  await letSettle();
  t.equal(retried, 1, 'the writes that wait were tried again');
  t.equal(storage.error()?.code, 'SQLITE_READONLY', 'and the error stays while one waits');
});
