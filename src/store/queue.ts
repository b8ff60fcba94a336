// The queue's view of the messages table: what waits for the hand-off lane (queued, hand-off
// not started), in the lane's order (among the messages that are due, the highest priority first;
// then due_at = sendAt or acceptance, then acceptance), the next expiry, and expiring what waited
// too long. Read through partial indexes, one row at a time: 10 000 waiting messages are never
// loaded into memory. The reads name their index (INDEXED BY): left to itself, SQLite's planner
// takes messages_status_newest (status = 'queued') and sorts every queued row for each pick, a
// cost that grows with the queue's depth.
import type { Db } from './database.js';
import { COLUMNS, type MessageRow } from './message-rows.js';
import type { MessageStore } from './messages.js';
import { transaction } from './transaction.js';

/** At most this many messages may wait (beyond it: 503 queue_full, docs/sending.md). */
export const QUEUE_LIMIT = 10_000;

const WAITING = `status = 'queued' AND handoff_started_at IS NULL`;

export function createQueueStore(db: Db, messages: Pick<MessageStore, 'settle'>) {
  // The earliest due (messages_waiting); when it is due, the due one of highest priority
  // (messages_waiting_priority: with every priority 0 its first entry is the earliest due).
  const earliestStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages INDEXED BY messages_waiting WHERE ${WAITING} ORDER BY due_at, seq LIMIT 1`,
  );
  const dueFirstStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages INDEXED BY messages_waiting_priority WHERE ${WAITING} AND due_at <= @now ` +
      `ORDER BY priority DESC, due_at, seq LIMIT 1`,
  );
  const nextExpiryStmt = db.prepare(
    `SELECT MIN(expires_at) AS at FROM messages INDEXED BY messages_expiring WHERE ${WAITING} AND expires_at IS NOT NULL`,
  );
  const expiredStmt = db.prepare(
    `SELECT id FROM messages INDEXED BY messages_expiring WHERE ${WAITING} AND expires_at IS NOT NULL ` +
      `AND expires_at <= @now ORDER BY expires_at LIMIT 500`,
  );
  const summaryStmt = db.prepare(`SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM messages WHERE ${WAITING}`);
  const listStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages WHERE ${WAITING} ` +
      `ORDER BY due_at > @now, CASE WHEN due_at <= @now THEN -priority END, due_at, seq LIMIT @limit OFFSET @offset`,
  );

  return {
    /**
     * The message the lane hands off next at `now`: among the due ones the highest priority, then the
     * earliest due; when none is due, the one due first (not yet due). Undefined when nothing waits.
     */
    next(now: number): MessageRow | undefined {
      const earliest = earliestStmt.get() as MessageRow | undefined;
      if (!earliest || earliest.dueAt > now) return earliest;
      return (dueFirstStmt.get({ now }) as MessageRow | undefined) ?? earliest;
    },
    /** The earliest expiresAt among waiting messages, or null. */
    nextExpiry: () => (nextExpiryStmt.get() as { at: number | null }).at,
    /** Waiting messages past their expiresAt become failed/expired (an sms.failed event each). */
    expireDue: transaction(db, (now: number): string[] => {
      const ids = (expiredStmt.all({ now }) as { id: string }[]).map((r) => r.id);
      return ids.filter((id) =>
        messages.settle(id, { status: 'failed', reason: 'expired', billedSegments: 0, at: now, handedOff: false }),
      );
    }),
    summary(): { count: number; oldestCreatedAt: number | null } {
      const r = summaryStmt.get() as { count: number; oldest: number | null };
      return { count: r.count, oldestCreatedAt: r.oldest };
    },
    /** Waiting messages in the lane's order at `now`, for `sms-gateway queue`. */
    list: (limit: number, offset: number, now: number) => listStmt.all({ limit, offset, now }) as MessageRow[],
  };
}

export type QueueStore = ReturnType<typeof createQueueStore>;
