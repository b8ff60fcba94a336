// A new database made in one step (the schema the migrations leave, store/schema-snapshot.ts, as
// the build writes it into store/fresh-schema.ts) is the database every migration in turn makes:
// the same tables, indexes and triggers, word for word, and the same version. The migrations
// after a snapshot's version still run; a database that is not empty is never given it.
import t from 'tap';
import Database from 'better-sqlite3';
import { migrate, schemaVersion } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { schemaSnapshot } from '../../src/store/schema-snapshot.js';
import type { FreshSchema } from '../../src/store/fresh-schema.js';

function snapshotOf(migrations: readonly string[]): FreshSchema {
  const db = new Database(':memory:');
  try {
    return schemaSnapshot(db, migrations);
  } finally {
    db.close();
  }
}

/** The schema (every object's type, table and SQL) and the version of a database migrated with `fresh`. */
function migrated(fresh: FreshSchema | undefined, before?: string) {
  const db = new Database(':memory:');
  try {
    if (before !== undefined) db.exec(before);
    migrate(db, MIGRATIONS, fresh);
    const objects = db
      .prepare('SELECT type, name, tbl_name, sql FROM sqlite_schema ORDER BY type, name')
      .all() as Record<string, unknown>[];
    return { version: schemaVersion(db), objects };
  } finally {
    db.close();
  }
}

/** `fresh` with a table of its own, so a database made from it can be told from a replayed one. */
const marked = (fresh: FreshSchema): FreshSchema => ({
  ...fresh,
  sql: `${fresh.sql}\nCREATE TABLE from_snapshot (x);`,
});
const hasMark = (db: ReturnType<typeof migrated>) => db.objects.some((o) => o.name === 'from_snapshot');

t.test('one step makes what every migration in turn makes', async (t) => {
  const replayed = migrated(undefined);
  t.equal(replayed.version, MIGRATIONS.length);
  t.ok(replayed.objects.length > 20, `the schema has its objects (${replayed.objects.length})`);
  const fresh = snapshotOf(MIGRATIONS);
  t.equal(fresh.version, MIGRATIONS.length);
  t.same(migrated(fresh), replayed);
  t.ok(hasMark(migrated(marked(fresh))), 'an empty database is made from the snapshot');
});

t.test('an older snapshot: the migrations after its version run on top of it', async (t) => {
  const older = snapshotOf(MIGRATIONS.slice(0, 12));
  t.equal(older.version, 12);
  t.same(migrated(older), migrated(undefined));
  t.ok(hasMark(migrated(marked(older))), 'made from the snapshot');
});

t.test('a database that is not empty at version 0 replays the migrations, never the snapshot', async (t) => {
  const before = 'CREATE TABLE brought_along (x INTEGER);';
  t.same(migrated(snapshotOf(MIGRATIONS), before), migrated(undefined, before));
  t.notOk(hasMark(migrated(marked(snapshotOf(MIGRATIONS)), before)), 'not made from the snapshot');
});

t.test('a snapshot newer than the migrations this code knows is not used', async (t) => {
  const newer = marked({ ...snapshotOf(MIGRATIONS), version: MIGRATIONS.length + 1 });
  const made = migrated(newer);
  t.notOk(hasMark(made), 'not made from the snapshot');
  t.equal(made.version, MIGRATIONS.length);
});

t.test('a migration that leaves rows behind stops the snapshot (they would be lost)', async (t) => {
  const seeded = [...MIGRATIONS, "INSERT INTO meta (key, value) VALUES ('seeded', '1');"];
  t.throws(() => snapshotOf(seeded), /leaves 1 rows in meta/);
});
