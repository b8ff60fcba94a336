// The send history: one row per accepted message, newest 1000 kept (a trigger prunes).
// Every status change and its roll-up are one transaction. Internal columns (hand-off
// times, idempotency data) never leave this file except through MessageRow.
import type { Db } from './database.js';
import type { StatsStore } from './stats.js';
import type { Encoding, MessageRecord, MessageStatus, Reason } from './message-record.js';

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
}

export type NewMessage = Pick<
  MessageRow,
  'id' | 'to' | 'sendTo' | 'body' | 'segments' | 'encoding' | 'simSlot' | 'sourceIp' | 'createdAt' | 'statsDay' | 'idempotencyKey' | 'requestHash'
>;

const COLUMNS = `
  id, to_number AS "to", send_to AS sendTo, body, segments, billed_segments AS billedSegments,
  encoding, sim_slot AS simSlot, status, reason, source_ip AS sourceIp, created_at AS createdAt,
  updated_at AS updatedAt, stats_day AS statsDay, handoff_started_at AS handoffStartedAt,
  handed_off_at AS handedOffAt, idempotency_key AS idempotencyKey, request_hash AS requestHash,
  response_status AS responseStatus, response_body AS responseBody, sms_store_id AS smsStoreId`;

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
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    encoding: row.encoding,
    simSlot: row.simSlot,
  };
}

export interface Settlement {
  status: 'sent' | 'failed';
  reason: Reason | null;
  billedSegments: number;
  at: number;
  handedOff: boolean;
  /** The phone's SMS store row that confirmed it, if any. */
  smsStoreId?: number | null;
}

export interface MessageStoreOptions {
  /** Runs inside the transaction of every status change (the webhook outbox). */
  onSettled?: (row: MessageRow, at: number) => void;
}

export function createMessageStore(db: Db, stats: StatsStore, opts: MessageStoreOptions = {}) {
  const insertStmt = db.prepare(`
    INSERT INTO messages (id, to_number, send_to, body, segments, encoding, sim_slot, status,
      source_ip, created_at, updated_at, stats_day, idempotency_key, request_hash)
    VALUES (@id, @to, @sendTo, @body, @segments, @encoding, @simSlot, 'queued',
      @sourceIp, @createdAt, @createdAt, @statsDay, @idempotencyKey, @requestHash)
  `);
  const getStmt = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE id = @id`);
  const byKeyStmt = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE idempotency_key = @key`);
  const handoffStmt = db.prepare(`UPDATE messages SET handoff_started_at = @at WHERE id = @id AND status = 'queued'`);
  const settleStmt = db.prepare(`
    UPDATE messages SET status = @status, reason = @reason, billed_segments = @billedSegments,
      updated_at = @at, handed_off_at = COALESCE(handed_off_at, @handedOffAt),
      sms_store_id = COALESCE(@smsStoreId, sms_store_id)
    WHERE id = @id AND status = 'queued'
  `);
  const handedOffStmt = db.prepare(`UPDATE messages SET handed_off_at = @at WHERE id = @id AND status = 'queued'`);
  const pendingConfirmStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages WHERE status = 'queued' AND handed_off_at IS NOT NULL`,
  );
  const claimedStmt = db.prepare(`SELECT sms_store_id AS id FROM messages WHERE sms_store_id IS NOT NULL`);
  const responseStmt = db.prepare(
    `UPDATE messages SET response_status = @status, response_body = @body WHERE id = @id`,
  );
  const interruptedStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages WHERE status = 'queued' AND handed_off_at IS NULL`,
  );
  const listStmt = db.prepare(`
    SELECT ${COLUMNS} FROM messages WHERE (@status IS NULL OR status = @status)
    ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset
  `);
  const countStmt = db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE (@status IS NULL OR status = @status)`);
  const recentStmt = db.prepare(
    `SELECT created_at AS createdAt, segments FROM messages WHERE created_at > @since ORDER BY created_at`,
  );

  const settleTx = db.transaction((id: string, s: Settlement) => {
    const row = getStmt.get({ id }) as MessageRow | undefined;
    if (!row || row.status !== 'queued') return false;
    settleStmt.run({
      id,
      status: s.status,
      reason: s.reason,
      billedSegments: s.billedSegments,
      at: s.at,
      handedOffAt: s.handedOff ? s.at : null,
      smsStoreId: s.smsStoreId ?? null,
    });
    stats.bump(row.statsDay, {
      sent: s.status === 'sent' ? 1 : 0,
      failed: s.status === 'failed' ? 1 : 0,
      billedSegments: s.billedSegments,
    });
    opts.onSettled?.(getStmt.get({ id }) as MessageRow, s.at);
    return true;
  });

  const insertTx = db.transaction((m: NewMessage) => {
    insertStmt.run(m);
    stats.bump(m.statsDay, { accepted: 1, segments: m.segments });
  });

  return {
    /** Commits the message as queued, with its roll-up, before any hand-off. */
    insertQueued(m: NewMessage): void {
      insertTx(m);
    },
    /** Committed right before the hand-off: a crash after this reads as "interrupted". */
    markHandoffStarted(id: string, at: number) {
      handoffStmt.run({ id, at });
    },
    /** queued -> sent | failed, with the roll-up. False if it was not queued. */
    settle(id: string, s: Settlement): boolean {
      return settleTx(id, s);
    },
    /** The hand-off succeeded; the status waits for the sent-box confirmation. */
    markHandedOff(id: string, at: number) {
      handedOffStmt.run({ id, at });
    },
    /** Handed off, not yet confirmed (resumed after a restart). */
    awaitingConfirmation: () => pendingConfirmStmt.all() as MessageRow[],
    /** SMS store ids already matched to a message. */
    claimedSmsStoreIds: () => new Set((claimedStmt.all() as { id: number }[]).map((r) => r.id)),
    saveResponse(id: string, status: number, body: unknown) {
      responseStmt.run({ id, status, body: JSON.stringify(body) });
    },
    get: (id: string) => getStmt.get({ id }) as MessageRow | undefined,
    byIdempotencyKey: (key: string) => byKeyStmt.get({ key }) as MessageRow | undefined,
    list(q: { limit: number; offset: number; status?: MessageStatus | undefined }) {
      const status = q.status ?? null;
      return {
        rows: listStmt.all({ status, limit: q.limit, offset: q.offset }) as MessageRow[],
        total: (countStmt.get({ status }) as { n: number }).n,
      };
    },
    /** At start: every queued message whose hand-off never completed becomes failed/interrupted. */
    recoverInterrupted(at: number): MessageRow[] {
      return db.transaction(() => {
        const rows = interruptedStmt.all() as MessageRow[];
        for (const row of rows) {
          settleTx(row.id, { status: 'failed', reason: 'interrupted', billedSegments: 0, at, handedOff: false });
        }
        return rows.map((row) => getStmt.get({ id: row.id }) as MessageRow);
      })();
    },
    /** Accepted messages since a wall-clock time, oldest first (to rebuild the send budget). */
    acceptedSince: (since: number) => recentStmt.all({ since }) as { createdAt: number; segments: number }[],
    count: () => (countStmt.get({ status: null }) as { n: number }).n,
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;
