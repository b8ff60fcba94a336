// The meta table: small named values the gateway keeps across restarts (the inbox
// watcher's watermark and baseline). Values are text; a reader parses its own.
import type { Db } from './database.js';

export function createMetaStore(db: Db) {
  const readStmt = db.prepare(`SELECT value FROM meta WHERE key = @key`);
  const writeStmt = db.prepare(
    `INSERT INTO meta (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const deleteStmt = db.prepare(`DELETE FROM meta WHERE key = @key`);
  return {
    get: (key: string) => (readStmt.get({ key }) as { value: string } | undefined)?.value,
    set(key: string, value: string): void {
      writeStmt.run({ key, value });
    },
    delete(key: string): void {
      deleteStmt.run({ key });
    },
  };
}

export type MetaStore = ReturnType<typeof createMetaStore>;
