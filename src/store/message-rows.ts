// The messages table's rows and statements: a row as the store reads it (every column, internal ones
// included), the shape of a new one, the mapping to the record clients see (one place for the column
// list), and the statements, each prepared once with named parameters, that the store's parts share.
import type Database from 'better-sqlite3';
import { isoOrNull as iso } from '../core/clock.js';
import type { Db } from './database.js';
import {
  tagsOf,
  type Encoding,
  type MessageRecord,
  type MessageStatus,
  type Origin,
  type Reason,
  type Tags,
} from './message-record.js';

export interface MessageRow {
  id: string;
  to: string;
  sendTo: string;
  body: string;
  segments: number;
  billedSegments: number;
  encoding: Encoding;
  simSlot: number;
  status: MessageStatus;
  reason: Reason | null;
  sourceIp: string;
  /** Where it came from (store/message-record.ts ORIGINS). */
  origin: Origin;
  createdAt: number;
  updatedAt: number;
  statsDay: string;
  handoffStartedAt: number | null;
  handedOffAt: number | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  responseStatus: number | null;
  responseBody: string | null;
  smsStoreId: number | null;
  /** 'sync' (POST /api/sms/send) or 'queue' (POST /api/messages). */
  via: 'sync' | 'queue';
  sendAt: number | null;
  expiresAt: number | null;
  /** sendAt, else createdAt: the queue's order. */
  dueAt: number;
  /** The tags as stored (JSON), NULL when none (store/message-tags.ts). */
  tags: string | null;
  /** -128..127 (0 unless asked): among due waiting messages, a higher one is handed off first. */
  priority: number;
}

export type NewMessage = Pick<
  MessageRow,
  | 'id'
  | 'to'
  | 'sendTo'
  | 'body'
  | 'segments'
  | 'encoding'
  | 'simSlot'
  | 'sourceIp'
  | 'createdAt'
  | 'statsDay'
  | 'idempotencyKey'
  | 'requestHash'
> &
  Partial<Pick<MessageRow, 'via' | 'sendAt' | 'expiresAt' | 'origin' | 'priority'>> & { tags?: Tags | undefined };

export const COLUMNS = `
  id, to_number AS "to", send_to AS sendTo, body, segments, billed_segments AS billedSegments,
  encoding, sim_slot AS simSlot, status, reason, source_ip AS sourceIp, created_at AS createdAt,
  updated_at AS updatedAt, stats_day AS statsDay, handoff_started_at AS handoffStartedAt,
  handed_off_at AS handedOffAt, idempotency_key AS idempotencyKey, request_hash AS requestHash,
  response_status AS responseStatus, response_body AS responseBody, sms_store_id AS smsStoreId,
  via, send_at AS sendAt, expires_at AS expiresAt, due_at AS dueAt, tags, origin, priority`;

/** A row as clients see it (the record of store/message-record.ts). */
export function toMessageRecord(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    to: row.to,
    body: row.body,
    segments: row.segments,
    billedSegments: row.billedSegments,
    status: row.status,
    reason: row.reason,
    sourceIp: row.sourceIp,
    origin: row.origin,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    encoding: row.encoding,
    simSlot: row.simSlot,
    sendAt: iso(row.sendAt),
    expiresAt: iso(row.expiresAt),
    tags: tagsOf(row.tags),
  };
}

// --- statements
// The messages table's statements, each prepared once with named parameters; the store's
// parts (message-reads.ts, message-settling.ts, messages.ts) share them.
/**
 * Which of @ids (a JSON array: one read of the phone's store, at most 50) are matched to a
 * message, through the index of migration 9: the work does not grow with the history.
 */
export const CLAIMED_AMONG_SQL =
  `SELECT sms_store_id AS id FROM messages WHERE sms_store_id IN (SELECT value FROM ` + `json_each(@ids))`;

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
        via, send_at, expires_at, due_at, handoff_started_at, tags, origin, priority)
      VALUES (@id, @to, @sendTo, @body, @segments, @encoding, @simSlot, 'queued',
        @sourceIp, @createdAt, @createdAt, @statsDay, @idempotencyKey, @requestHash,
        @via, @sendAt, @expiresAt, COALESCE(@sendAt, @createdAt), @handoffStartedAt, @tags, @origin, @priority)
    `),
    getStmt: db.prepare(`SELECT ${COLUMNS} FROM messages WHERE id = @id`),
    byKeyStmt: db.prepare(`SELECT ${COLUMNS} FROM messages WHERE idempotency_key = @key`),
    handoffStmt: db.prepare(
      `UPDATE messages SET handoff_started_at = @at WHERE id = @id AND status = 'queued' AND handoff_started_at IS ` +
        `NULL`,
    ),
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
    pendingConfirmStmt: db.prepare(
      `SELECT ${COLUMNS} FROM messages WHERE status = 'queued' AND handed_off_at IS NOT NULL`,
    ),
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
