// Opens $SMS_GATEWAY_HOME/gateway.db: WAL, a busy timeout, full fsync on commit (an
// accepted message must survive a power cut), and numbered migrations run at start.
// A schema newer than this code knows stops the start with one line saying what to do. Every
// statement that writes tells write-watch.ts how it went (diagnostics sees every write).
import Database from 'better-sqlite3';
import { chmodSync, existsSync, statSync } from 'node:fs';
import { FRESH_SCHEMA, type FreshSchema } from './fresh-schema.js';
import { MIGRATIONS } from './migrations.js';
import { statementWrote, writeFailed } from './write-watch.js';

export type Db = Database.Database;

export const WAL_SIZE_LIMIT = 4 * 1024 * 1024;

export class SchemaError extends Error {
  override name = 'SchemaError';
}

export function openDatabase(path: string): Db {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // After a checkpoint the WAL file is cut back to this size, so months of writes never
    // leave a large file behind (SQLite checkpoints every 1000 pages by itself).
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT}`);
    migrate(db);
    // The owner's messages: readable by the owner only (the home is 0700 as well).
    for (const file of [path, `${path}-wal`, `${path}-shm`]) if (existsSync(file)) chmodSync(file, 0o600);
    inodes.set(db, statSync(path).ino);
    reportWrites(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return db;
}

const inodes = new WeakMap<Db, number>();

type Execute = (...params: unknown[]) => unknown;

/** Whether a writing statement's result says it changed rows (one that matched none wrote nothing). */
function changedRows(result: unknown): boolean {
  if (Array.isArray(result)) return result.length > 0;
  if (result !== null && typeof result === 'object' && 'changes' in result) return Number(result.changes) > 0;
  return result !== undefined;
}

/**
 * Every statement prepared from now on that writes reports to write-watch.ts: a refusal
 * the disk gave (isStorageUnavailable) and a write made (rows changed: a statement that
 * matched none touched no page, so it says nothing about the disk). Statements that only read, and
 * the statements better-sqlite3 runs for its own transactions, are left as they are.
 */
function reportWrites(db: Db): void {
  const prepare = db.prepare.bind(db);
  db.prepare = ((source: string) => {
    const stmt = prepare(source);
    if (stmt.readonly) return stmt;
    for (const name of ['run', 'get', 'all'] as const) {
      const execute: Execute = stmt[name].bind(stmt);
      const reported: Execute = (...params) => {
        let result: unknown;
        try {
          result = execute(...params);
        } catch (err) {
          if (isStorageUnavailable(err)) writeFailed(db, err);
          throw err;
        }
        if (changedRows(result)) statementWrote(db);
        return result;
      };
      Object.assign(stmt, { [name]: reported });
    }
    return stmt;
  }) as Db['prepare'];
}

/**
 * True when the database file was deleted (or replaced) while the gateway runs: SQLite
 * would go on writing to the unlinked file, and every write would vanish at the next start.
 */
export function databaseFileGone(db: Db): boolean {
  const ino = inodes.get(db);
  if (ino === undefined) return false;
  try {
    return statSync(db.name).ino !== ino;
  } catch {
    return true;
  }
}

/** The error a write gets when the database file is gone (a storage outage: 503). */
export function fileGoneError(): Error {
  return Object.assign(new Error('gateway.db was deleted while the gateway runs'), { code: 'SQLITE_CANTOPEN_DELETED' });
}

export function schemaVersion(db: Db): number {
  return db.pragma('user_version', { simple: true }) as number;
}

/** SQLite's own check of the file ("ok" or the first problems found). */
export function quickCheck(db: Db): string {
  return String(db.pragma('quick_check', { simple: true }));
}

/** Opens an in-memory database and returns SQLite's version, e.g. "3.49.1" (doctor: the module loads). */
export function probeSqlite(): string {
  const db = new Database(':memory:');
  try {
    return (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
  } finally {
    db.close();
  }
}

/**
 * Brings the schema to MIGRATIONS.length: every pending migration in one transaction, so a
 * new home's database is one commit (one fsync of its log, not one per migration) and a
 * migration that fails leaves the schema as it was. An empty database starts from `fresh`
 * (the schema the migrations make, written in by the build: one script instead of each
 * migration in turn), then runs the migrations after its version.
 */
export function migrate(db: Db, migrations: readonly string[] = MIGRATIONS, fresh = FRESH_SCHEMA): void {
  const current = schemaVersion(db);
  if (current > migrations.length) {
    throw new SchemaError(
      `the database schema is version ${current}, newer than this gateway knows (${migrations.length}): a newer ` +
        `sms-gateway wrote it; ` +
        'run that version again (git pull && npm install), or restore the backup taken before the upgrade',
    );
  }
  if (current === migrations.length) return;
  db.transaction(() => {
    const from = freshStart(db, current, migrations.length, fresh);
    for (const sql of migrations.slice(from)) db.exec(sql);
    db.pragma(`user_version = ${migrations.length}`);
  })();
}

/** Makes an empty database's schema from `fresh` and returns its version; otherwise `current`. */
function freshStart(db: Db, current: number, known: number, fresh: FreshSchema | undefined): number {
  if (current !== 0 || fresh === undefined || fresh.version > known) return current;
  const { objects } = db.prepare('SELECT count(*) AS objects FROM sqlite_schema').get() as { objects: number };
  if (objects > 0) return current;
  db.exec(fresh.sql);
  return fresh.version;
}

/** True for SQLite errors that mean "cannot write now" (read-only, disk full, I/O). */
export function isStorageUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (
    typeof code === 'string' && /^SQLITE_(READONLY|FULL|IOERR|CANTOPEN|BUSY|LOCKED|PERM|CORRUPT|NOTADB)/.test(code)
  );
}
