// What the migrations leave in an empty database, as one SQL script (fresh-schema.ts): run by
// the build against an in-memory database. Only the schema is carried, so a migration that
// leaves rows behind stops the build instead of being lost from new databases.
import type Database from 'better-sqlite3';
import type { FreshSchema } from './fresh-schema.js';

/** Runs `migrations` on the empty database `db` and returns the schema they made. */
export function schemaSnapshot(db: Database.Database, migrations: readonly string[]): FreshSchema {
  db.transaction(() => {
    for (const sql of migrations) db.exec(sql);
  })();
  // sqlite_sequence and SQLite's own indexes come back by themselves with the tables.
  const objects = db
    .prepare(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' " +
        'ORDER BY rowid',
    )
    .all() as { type: string; name: string; sql: string }[];
  for (const { name } of objects.filter((o) => o.type === 'table')) {
    const rows = db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number };
    if (rows.n > 0) throw new Error(`migration leaves ${rows.n} rows in ${name}: a fresh schema would lose them`);
  }
  return { version: migrations.length, sql: objects.map((o) => `${o.sql};`).join('\n') };
}
