// The messages table's statements, each prepared once with named parameters; the store's
// parts (message-reads.ts, message-settling.ts, messages.ts) share them.
import type Database from 'better-sqlite3';
import type { Db } from './database.js';
import { COLUMNS } from './message-rows.js';

/**
 * Which of @ids (a JSON array: one read of the phone's store, at most 50) are matched to a
 * message, through the index of migration 9: the work does not grow with the history.
 */
export const CLAIMED_AMONG_SQL = `SELECT sms_store_id AS id FROM messages WHERE sms_store_id IN (SELECT value FROM json_each(@ids))`;

type StatementName =
  | 'insertStmt'
  | 'getStmt'
  | 'byKeyStmt'
  | 'handoffStmt'
  | 'cancelStmt'
  | 'settleStmt'
  | 'handedOffStmt'
  | 'pendingConfirmStmt'
  | 'claimedStmt'
  | 'responseStmt'
  | 'interruptedStmt'
  | 'processStmt'
  | 'countStmt'
  | 'handoffsStmt';

/** The messages table's prepared statements, by name (written out: the store's parts share it). */
export type Statements = Record<StatementName, Database.Statement>;

export function statements(db: Db): Statements {
  return {
    insertStmt: db.prepare(`
      INSERT INTO messages (id, to_number, send_to, body, segments, encoding, sim_slot, status,
        source_ip, created_at, updated_at, stats_day, idempotency_key, request_hash,
        via, send_at, expires_at, due_at, handoff_started_at, tags, origin)
      VALUES (@id, @to, @sendTo, @body, @segments, @encoding, @simSlot, 'queued',
        @sourceIp, @createdAt, @createdAt, @statsDay, @idempotencyKey, @requestHash,
        @via, @sendAt, @expiresAt, COALESCE(@sendAt, @createdAt), @handoffStartedAt, @tags, @origin)
    `),
    getStmt: db.prepare(`SELECT ${COLUMNS} FROM messages WHERE id = @id`),
    byKeyStmt: db.prepare(`SELECT ${COLUMNS} FROM messages WHERE idempotency_key = @key`),
    handoffStmt: db.prepare(`UPDATE messages SET handoff_started_at = @at WHERE id = @id AND status = 'queued' AND handoff_started_at IS NULL`),
    cancelStmt: db.prepare(`
      UPDATE messages SET status = 'cancelled', updated_at = @at
      WHERE id = @id AND status = 'queued' AND handoff_started_at IS NULL
    `),
    settleStmt: db.prepare(`
      UPDATE messages SET status = @status, reason = @reason, billed_segments = @billedSegments,
        updated_at = @at, handed_off_at = COALESCE(handed_off_at, @handedOffAt),
        sms_store_id = COALESCE(@smsStoreId, sms_store_id)
      WHERE id = @id AND status = 'queued'
    `),
    handedOffStmt: db.prepare(`UPDATE messages SET handed_off_at = @at WHERE id = @id AND status = 'queued'`),
    pendingConfirmStmt: db.prepare(`SELECT ${COLUMNS} FROM messages WHERE status = 'queued' AND handed_off_at IS NOT NULL`),
    claimedStmt: db.prepare(CLAIMED_AMONG_SQL),
    responseStmt: db.prepare(`UPDATE messages SET response_status = @status, response_body = @body WHERE id = @id`),
    // A hand-off that began but never completed; or a synchronous message from 0.1, which
    // recorded the start separately. Queued messages still waiting are not interrupted.
    interruptedStmt: db.prepare(`
      SELECT ${COLUMNS}, handoff_pgid AS pgid, handoff_boot AS boot, handoff_start_ticks AS startTicks
      FROM messages WHERE status = 'queued' AND handed_off_at IS NULL
        AND (handoff_started_at IS NOT NULL OR via = 'sync')
      ORDER BY seq
    `),
    processStmt: db.prepare(`
      UPDATE messages SET handoff_pgid = @pgid, handoff_boot = @boot, handoff_start_ticks = @startTicks
      WHERE id = @id AND status = 'queued'
    `),
    countStmt: db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE (@status IS NULL OR status = @status)`),
    handoffsStmt: db.prepare(`
      SELECT handoff_started_at AS at, segments, via FROM messages
      WHERE handoff_started_at > @since ORDER BY handoff_started_at
    `),
  };
}
