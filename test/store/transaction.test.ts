// The store's after-commit hook (src/store/transaction.ts): callbacks run once the
// outermost transaction committed, in order, never for a rolled-back transaction or
// savepoint, and a throwing callback does not turn a commit into a failure.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../src/store/database.js';
import { afterCommit, transaction } from '../../src/store/transaction.js';
import { tempDir } from '../helpers/paths.js';

function open(t: Test): Db {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  db.exec('CREATE TABLE things (name TEXT)');
  return db;
}

const names = (db: Db) =>
  (db.prepare('SELECT name FROM things ORDER BY rowid').all() as { name: string }[]).map((r) => r.name);

t.test('a callback runs after the commit, not inside the transaction', async (t) => {
  const db = open(t);
  const heard: string[] = [];
  const insert = db.prepare('INSERT INTO things (name) VALUES (?)');
  const add = transaction(db, (name: string) => {
    insert.run(name);
    afterCommit(db, () => {
      t.notOk(db.inTransaction, 'no transaction open when it runs');
      heard.push(`${name}: ${names(db).join(',')}`);
    });
    t.same(heard, [], 'not yet, inside the transaction');
    return name.length;
  });
  t.equal(add('a'), 1, 'the result comes back');
  t.same(heard, ['a: a'], 'heard once, synchronously after the commit');
});

t.test('a rolled-back transaction drops its callbacks', async (t) => {
  const db = open(t);
  const heard: string[] = [];
  const insert = db.prepare('INSERT INTO things (name) VALUES (?)');
  const fail = transaction(db, () => {
    insert.run('x');
    afterCommit(db, () => heard.push('x'));
    throw new Error('a later write failed');
  });
  t.throws(() => fail(), /a later write failed/);
  t.same(names(db), [], 'rolled back');
  transaction(db, () => afterCommit(db, () => heard.push('next')))();
  t.same(heard, ['next'], 'the dropped callback never runs, not even at the next commit');
});

t.test('nested: callbacks wait for the outermost commit; a rolled-back savepoint drops only its own', async (t) => {
  const db = open(t);
  const heard: string[] = [];
  const insert = db.prepare('INSERT INTO things (name) VALUES (?)');
  const inner = transaction(db, (name: string, fails: boolean) => {
    insert.run(name);
    afterCommit(db, () => heard.push(name));
    if (fails) throw new Error(`${name} failed`);
  });
  const outer = transaction(db, () => {
    afterCommit(db, () => heard.push('outer-first'));
    inner('kept', false);
    t.same(heard, [], 'a committed savepoint does not run its callbacks yet');
    t.throws(() => inner('dropped', true));
    inner('also-kept', false);
  });
  outer();
  t.same(heard, ['outer-first', 'kept', 'also-kept'], 'in order; the rolled-back savepoint is not heard');
  t.same(names(db), ['kept', 'also-kept']);

  heard.length = 0;
  const outerFails = transaction(db, () => {
    inner('lost', false);
    throw new Error('outer failed');
  });
  t.throws(() => outerFails());
  t.same(heard, [], 'the outer rollback drops what its savepoints registered');
});

t.test('a callback that throws: the commit stands, the others run, the error surfaces apart', async (t) => {
  const db = open(t);
  const heard: string[] = [];
  const surfaced: unknown[] = [];
  const onUncaught = (err: unknown) => surfaced.push(err);
  process.prependListener('uncaughtException', onUncaught);
  t.teardown(() => void process.removeListener('uncaughtException', onUncaught));
  const result = transaction(db, () => {
    afterCommit(db, () => {
      throw new Error('listener broke');
    });
    afterCommit(db, () => heard.push('second'));
    return 'committed';
  })();
  t.equal(result, 'committed');
  t.same(heard, ['second']);
  await new Promise((r) => setImmediate(r));
  t.match(surfaced, [{ message: 'listener broke' }]);
});

t.test('misuse is refused', async (t) => {
  const db = open(t);
  t.throws(() => afterCommit(db, () => {}), /outside a store transaction/);
  const plain = transaction(db, () => 1);
  t.equal(db.transaction(() => plain())(), 1, 'inside a raw transaction: fine while nothing is announced');
  const announcing = transaction(db, () => afterCommit(db, () => {}));
  t.throws(() => db.transaction(() => announcing())(), /did not open/, 'an announcement there would come too early');
  t.doesNotThrow(() => announcing(), 'the next transaction of ours is not affected');
});
