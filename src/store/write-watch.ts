// Every database write, seen in one place: openDatabase (database.ts) instruments each
// statement that writes, and transaction() (transaction.ts) reports its commit, so a write
// the disk refuses and a write it took again reach the watchers (the sending part's
// storage health, which diagnostics shows) whoever made it: the API, the queue's lane, the
// settler, webhook delivery bookkeeping, the inbox's commits. Nobody reports by hand, so
// nobody can forget to. Imports nothing of the store (database.ts imports this file).
import type Database from 'better-sqlite3';

type Db = Database.Database;

/** Told of every write: a refusal by the disk (read-only, full, I/O), and a committed write. */
export interface WriteWatcher {
  failed(err: unknown): void;
  succeeded(): void;
}

interface WatchState {
  watchers: Set<WriteWatcher>;
  /** A statement wrote inside the open transaction: its commit is a committed write. */
  wroteInTransaction: boolean;
}

const states = new WeakMap<Db, WatchState>();

const stateOf = (db: Db): WatchState => {
  let s = states.get(db);
  if (!s) {
    s = { watchers: new Set(), wroteInTransaction: false };
    states.set(db, s);
  }
  return s;
};

/** Tells `watcher` of every write on db from now on; returns the way to stop. */
export function watchWrites(db: Db, watcher: WriteWatcher): () => void {
  const s = stateOf(db);
  s.watchers.add(watcher);
  return () => s.watchers.delete(watcher);
}

/** The disk refused a write (only errors that mean "cannot write now" are reported). */
export function writeFailed(db: Db, err: unknown): void {
  const s = states.get(db);
  if (!s) return;
  s.wroteInTransaction = false;
  for (const w of s.watchers) w.failed(err);
}

/** A statement wrote: committed now outside a transaction, else at its transaction's commit. */
export function statementWrote(db: Db): void {
  const s = states.get(db);
  if (!s) return;
  if (db.inTransaction) s.wroteInTransaction = true;
  else for (const w of s.watchers) w.succeeded();
}

/** The outermost transaction committed: a committed write when a statement wrote in it. */
export function transactionCommitted(db: Db): void {
  const s = states.get(db);
  if (!s?.wroteInTransaction) return;
  s.wroteInTransaction = false;
  for (const w of s.watchers) w.succeeded();
}

/** The outermost transaction rolled back for a reason of its own (not the disk): nothing was written. */
export function transactionRolledBack(db: Db): void {
  const s = states.get(db);
  if (s) s.wroteInTransaction = false;
}
