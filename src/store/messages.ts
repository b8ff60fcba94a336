// The send history: one row per accepted message; the newest 1000 settled ones are kept
// (a trigger prunes; a queued message is never pruned). Every status change and its
// roll-up are one transaction. Settling (queued -> sent | failed, whichever path: the
// hand-off, the sent-box confirmation, expiry, an interrupted hand-off) also makes the
// message's sms.sent / sms.failed event in that transaction (the outbox); it is announced
// as `message.settled` on the event path once the transaction committed. Internal columns (hand-off
// times, idempotency data) never leave the store except through MessageRow. This file
// accepts messages and marks their hand-off, and puts the store together; its reads, its
// settling and its statements are in message-reads.ts, message-settling.ts and
// message-statements.ts.
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import type { OutboxStore } from './outbox.js';
import { afterCommit, transaction } from './transaction.js';
import type { ProcessGroup } from '../core/ids.js';
import type { StatsStore } from './stats.js';
import type { MessageRow, NewMessage } from './message-rows.js';
import { statements, type Statements } from './message-rows.js';
import { messageReaders } from './message-reads.js';
import { messageSettling } from './message-settling.js';
import { tagsColumn } from './message-record.js';

export { toMessageRecord, type MessageRow, type NewMessage } from './message-rows.js';
export { CLAIMED_AMONG_SQL } from './message-rows.js';
export { settledEvent, type Settlement } from './message-settling.js';

export interface MessageStoreOptions {
  /** Where a settled message's event is stored (in the settling transaction) and announced from. */
  outbox?: Pick<OutboxStore, 'record'>;
}

/** The response stored with a request's first message, built from the stored rows. */
type Answer = (rows: MessageRow[]) => { status: number | null; body: unknown };

/**
 * Accepting messages: recorded as queued (or as started, for a synchronous one) with their roll-up, and cancelling one.
 */
function intake(db: Db, q: Statements, stats: StatsStore) {
  const { insertStmt, getStmt, cancelStmt, responseStmt } = q;
  const insertTx = transaction(db, (ms: NewMessage[], handoffStartedAt: number | null) => {
    if (databaseFileGone(db)) throw fileGoneError();
    for (const m of ms) {
      const defaults = { via: 'sync', sendAt: null, expiresAt: null, origin: 'api' };
      insertStmt.run({ ...defaults, ...m, priority: m.priority ?? 0, tags: tagsColumn(m.tags), handoffStartedAt });
      stats.bump(m.statsDay, { accepted: 1, segments: m.segments });
    }
  });

  const cancelTx = transaction(db, (id: string, at: number): MessageRow | undefined => {
    if (databaseFileGone(db)) throw fileGoneError();
    if (cancelStmt.run({ id, at }).changes !== 1) return undefined;
    const row = getStmt.get({ id }) as MessageRow;
    stats.bump(row.statsDay, { cancelled: 1 });
    return row;
  });

  return {
    /** Commits the message as queued, with its roll-up, before any hand-off. */
    insertQueued(m: NewMessage): void {
      insertTx([m], null);
    },
    /**
     * Several messages (one request's recipients) in one transaction, all or none; `answer`
     * builds the response from the stored rows, saved with the first for Idempotency-Key replays;
     * `committed` runs once the outermost transaction (maybe the caller's) committed.
     */
    insertBatch: transaction(db, (ms: NewMessage[], answer?: Answer, committed?: () => void): MessageRow[] => {
      insertTx(ms, null);
      if (committed) afterCommit(db, committed);
      const rows = ms.map((m) => getStmt.get({ id: m.id }) as MessageRow);
      const first = rows[0];
      if (answer && first) {
        const a = answer(rows);
        responseStmt.run({ id: first.id, status: a.status, body: JSON.stringify(a.body) });
      }
      return rows;
    }),
    /** A synchronous message at its turn: recorded and its hand-off marked started, in one commit. */
    insertStarted(m: NewMessage, at: number): MessageRow {
      insertTx([m], at);
      return getStmt.get({ id: m.id }) as MessageRow;
    },
    /** queued (hand-off not started) -> cancelled, with the roll-up; undefined if not possible. */
    cancel(id: string, at: number): MessageRow | undefined {
      return cancelTx(id, at);
    },
  };
}

/** The hand-off's marks on a queued message: started, handed off, its process group, the stored answer. */
function handoffMarks(db: Db, q: Statements) {
  const { handoffStmt, handedOffStmt, responseStmt, processStmt } = q;
  /**
   * A commit without an fsync (synchronous=NORMAL for it alone; inside an enclosing
   * transaction, that one's commit decides). It survives the gateway being killed (the WAL
   * is in the system's page cache), not a power cut before the next fsync'd commit, which
   * makes it durable too. Only for marks whose loss a restart reads truthfully. The level
   * is set by running the PRAGMA's text each time, not a statement prepared once: SQLite
   * applies a synchronous setting when it compiles the statement, so a prepared one did
   * nothing at its first run (the first lazy mark of a store's life was fsync'd). db.exec
   * compiles and runs it without the Statement object db.pragma makes and leaves to the
   * garbage collector (two marks a queued message, four such objects).
   */
  const withoutFsync = (write: () => void): void => {
    const lazy = !db.inTransaction;
    if (lazy) db.exec('PRAGMA synchronous = NORMAL');
    try {
      write();
    } finally {
      if (lazy) db.exec('PRAGMA synchronous = FULL');
    }
  };

  return {
    /**
     * Committed right before the hand-off: a crash after this reads as "interrupted".
     * False when the message is no longer waiting (cancelled, expired, already started).
     */
    markHandoffStarted(id: string, at: number): boolean {
      return handoffStmt.run({ id, at }).changes === 1;
    },
    /**
     * The hand-off succeeded; the status waits for the sent-box confirmation. Without an
     * fsync (withoutFsync): the settlement commits it durably. Lost to a power cut first, the
     * message reads as an interrupted hand-off after the reboot, which is looked for in the
     * sent box like any other (recover-handoffs.ts).
     */
    markHandedOff(id: string, at: number) {
      withoutFsync(() => handedOffStmt.run({ id, at }));
    },
    /** status null: the body is the send's outcome (sms/outcomes.ts), not an HTTP answer. */
    saveResponse(id: string, status: number | null, body: unknown) {
      responseStmt.run({ id, status, body: JSON.stringify(body) });
    },
    /**
     * The process group running a message's hand-off (kept until the message settles), in a
     * commit of its own once the group exists, without an fsync (withoutFsync): it is needed
     * only while the system keeps running, since a reboot ends the group (the boot id says so).
     */
    recordHandoffProcess(id: string, group: ProcessGroup): void {
      withoutFsync(() => processStmt.run({ id, pgid: group.pgid, boot: group.boot, startTicks: group.startTicks }));
    },
  };
}

export function createMessageStore(db: Db, stats: StatsStore, opts: MessageStoreOptions = {}) {
  const q = statements(db);
  return {
    ...messageReaders(db, q),
    ...messageSettling(db, q, stats, opts.outbox),
    ...intake(db, q, stats),
    ...handoffMarks(db, q),
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;
