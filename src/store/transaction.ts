// The store's transactions and their after-commit hook. transaction(db, fn) is
// better-sqlite3's db.transaction (a savepoint when nested) that also keeps track of
// afterCommit(db, cb) callbacks registered inside it: they run, in order, once the
// OUTERMOST transaction committed; a rolled-back transaction (or nested savepoint) drops
// the callbacks registered inside it. Every store transaction goes through here, so what a
// committed change announces (webhook delivery, MQTT) is never heard of before its commit
// and never at all when it rolled back. The outermost commit (or the disk's refusal of it)
// is told to write-watch.ts, as each statement's write is by database.ts.
import { isStorageUnavailable, type Db } from './database.js';
import { transactionCommitted, transactionRolledBack, writeFailed } from './write-watch.js';

interface State {
  /** How many of our transactions are open on this connection. */
  depth: number;
  /** Our outermost one runs inside a raw db.transaction(): we cannot tell when that commits. */
  enclosed: boolean;
  pending: (() => void)[];
}

const states = new WeakMap<Db, State>();

const stateOf = (db: Db): State => {
  let s = states.get(db);
  if (!s) {
    s = { depth: 0, enclosed: false, pending: [] };
    states.set(db, s);
  }
  return s;
};

export interface TransactionOptions {
  /** BEGIN IMMEDIATE: take the write lock first (for read-then-write). Ignored when nested. */
  immediate?: boolean;
}

/** Wraps fn in a transaction (a savepoint inside another); see the header for afterCommit. */
export function transaction<A extends unknown[], R>(
  db: Db,
  fn: (...args: A) => R,
  opts: TransactionOptions = {},
): (...args: A) => R {
  const wrapped = db.transaction(fn);
  const begin = opts.immediate ? wrapped.immediate.bind(wrapped) : wrapped;
  return (...args: A): R => {
    const s = stateOf(db);
    const outermost = s.depth === 0;
    if (outermost) s.enclosed = db.inTransaction;
    const mark = s.pending.length;
    s.depth++;
    let result: R;
    try {
      result = begin(...args);
    } catch (err) {
      s.pending.length = mark; // rolled back: what it registered is dropped
      if (outermost && !s.enclosed) reportRollback(db, err);
      throw err;
    } finally {
      s.depth--;
    }
    if (outermost && !s.enclosed) transactionCommitted(db);
    if (outermost) runPending(s);
    return result;
  };
}

/**
 * A rollback's cause to write-watch.ts: the disk's refusal (of a statement or the commit), or the transaction's own.
 */
function reportRollback(db: Db, err: unknown): void {
  if (isStorageUnavailable(err)) writeFailed(db, err);
  else transactionRolledBack(db);
}

/** Runs cb once the outermost transaction open now has committed (never if it rolls back). */
export function afterCommit(db: Db, cb: () => void): void {
  const s = stateOf(db);
  if (s.depth === 0) throw new Error('afterCommit outside a store transaction');
  // A raw db.transaction() around ours commits later than we could tell: use transaction().
  if (s.enclosed) throw new Error('afterCommit inside a transaction the store did not open');
  s.pending.push(cb);
}

function runPending(s: State): void {
  const callbacks = s.pending;
  s.pending = [];
  for (const cb of callbacks) {
    try {
      cb();
    } catch (err) {
      // The change is committed whatever a listener does: its caller must not see a failure.
      // The error surfaces on its own, as one thrown by a timer would.
      queueMicrotask(() => {
        throw err;
      });
    }
  }
}

/** Transactions for code outside the store that groups several store calls into one. */
export interface Transactions {
  run<R>(fn: () => R): R;
  /** BEGIN IMMEDIATE (read, then write). */
  immediate<R>(fn: () => R): R;
}

export function transactions(db: Db): Transactions {
  return {
    run: (fn) => transaction(db, fn)(),
    immediate: (fn) => transaction(db, fn, { immediate: true })(),
  };
}
