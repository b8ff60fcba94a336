// The send history: one row per accepted message; the newest 1000 settled ones are kept
// (a trigger prunes; a queued message is never pruned). Every status change and its
// roll-up are one transaction. Internal columns (hand-off times, idempotency data) never
// leave the store except through MessageRow.
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import type { ProcessGroup } from '../core/process-group.js';
import type { StatsStore } from './stats.js';
import type { MessageStatus, Reason } from './message-record.js';
import { COLUMNS, type MessageRow, type NewMessage } from './message-rows.js';

export { toMessageRecord, type MessageRow, type NewMessage } from './message-rows.js';

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
      source_ip, created_at, updated_at, stats_day, idempotency_key, request_hash,
      via, send_at, expires_at, due_at, handoff_started_at)
    VALUES (@id, @to, @sendTo, @body, @segments, @encoding, @simSlot, 'queued',
      @sourceIp, @createdAt, @createdAt, @statsDay, @idempotencyKey, @requestHash,
      @via, @sendAt, @expiresAt, COALESCE(@sendAt, @createdAt), @handoffStartedAt)
  `);
  const getStmt = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE id = @id`);
  const byKeyStmt = db.prepare(`SELECT ${COLUMNS} FROM messages WHERE idempotency_key = @key`);
  const handoffStmt = db.prepare(
    `UPDATE messages SET handoff_started_at = @at WHERE id = @id AND status = 'queued' AND handoff_started_at IS NULL`,
  );
  const cancelStmt = db.prepare(`
    UPDATE messages SET status = 'cancelled', updated_at = @at
    WHERE id = @id AND status = 'queued' AND handoff_started_at IS NULL
  `);
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
  // A hand-off that began but never completed; or a synchronous message from 0.1, which
  // recorded the start separately. Queued messages still waiting are not interrupted.
  const interruptedStmt = db.prepare(`
    SELECT ${COLUMNS}, handoff_pgid AS pgid, handoff_boot AS boot, handoff_start_ticks AS startTicks
    FROM messages WHERE status = 'queued' AND handed_off_at IS NULL
      AND (handoff_started_at IS NOT NULL OR via = 'sync')
    ORDER BY seq
  `);
  const processStmt = db.prepare(`
    UPDATE messages SET handoff_pgid = @pgid, handoff_boot = @boot, handoff_start_ticks = @startTicks
    WHERE id = @id AND status = 'queued'
  `);
  const listStmt = db.prepare(`
    SELECT ${COLUMNS} FROM messages WHERE (@status IS NULL OR status = @status)
    ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset
  `);
  const countStmt = db.prepare(`SELECT COUNT(*) AS n FROM messages WHERE (@status IS NULL OR status = @status)`);
  const handoffsStmt = db.prepare(`
    SELECT handoff_started_at AS at, segments, via FROM messages
    WHERE handoff_started_at > @since ORDER BY handoff_started_at
  `);

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

  const insertTx = db.transaction((ms: NewMessage[], handoffStartedAt: number | null) => {
    if (databaseFileGone(db)) throw fileGoneError();
    for (const m of ms) {
      insertStmt.run({ via: 'sync', sendAt: null, expiresAt: null, ...m, handoffStartedAt });
      stats.bump(m.statsDay, { accepted: 1, segments: m.segments });
    }
  });

  const cancelTx = db.transaction((id: string, at: number): MessageRow | undefined => {
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
     * builds the response from the stored rows, saved with the first for Idempotency-Key replays.
     */
    insertBatch(ms: NewMessage[], answer?: (rows: MessageRow[]) => { status: number | null; body: unknown }): MessageRow[] {
      return db.transaction(() => {
        insertTx(ms, null);
        const rows = ms.map((m) => getStmt.get({ id: m.id }) as MessageRow);
        const first = rows[0];
        if (answer && first) {
          const a = answer(rows);
          responseStmt.run({ id: first.id, status: a.status, body: JSON.stringify(a.body) });
        }
        return rows;
      })();
    },
    /** A synchronous message at its turn: recorded and its hand-off marked started, in one commit. */
    insertStarted(m: NewMessage, at: number): MessageRow {
      insertTx([m], at);
      return getStmt.get({ id: m.id }) as MessageRow;
    },
    /**
     * Committed right before the hand-off: a crash after this reads as "interrupted".
     * False when the message is no longer waiting (cancelled, expired, already started).
     */
    markHandoffStarted(id: string, at: number): boolean {
      return handoffStmt.run({ id, at }).changes === 1;
    },
    /** queued (hand-off not started) -> cancelled, with the roll-up; undefined if not possible. */
    cancel(id: string, at: number): MessageRow | undefined {
      return cancelTx(id, at);
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
    /** status null: the body is the send's outcome (sms/outcomes.ts), not an HTTP answer. */
    saveResponse(id: string, status: number | null, body: unknown) {
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
    /** The process group running a message's hand-off (kept until the message settles). */
    recordHandoffProcess(id: string, group: ProcessGroup): void {
      processStmt.run({ id, pgid: group.pgid, boot: group.boot, startTicks: group.startTicks });
    },
    /**
     * At start, before the lane runs: queued messages whose hand-off began (or, for a 0.1
     * synchronous row, may have begun) and never completed, with the hand-off's process group
     * when it was recorded.
     */
    unfinishedHandoffs(): { row: MessageRow; group: ProcessGroup | null }[] {
      return (interruptedStmt.all() as (MessageRow & { pgid: number | null; boot: string | null; startTicks: number | null })[]).map(
        ({ pgid, boot, startTicks, ...row }) => ({ row, group: pgid === null ? null : { pgid, boot, startTicks } }),
      );
    },
    /** These queued, not handed-off messages become failed/interrupted (never resent), in one transaction. */
    settleInterrupted(ids: string[], at: number): MessageRow[] {
      return db.transaction(() => {
        const settled: MessageRow[] = [];
        for (const id of ids) {
          const row = getStmt.get({ id }) as MessageRow | undefined;
          if (!row || row.handedOffAt !== null) continue; // handed off: the confirmation settles it
          if (settleTx(id, { status: 'failed', reason: 'interrupted', billedSegments: 0, at, handedOff: false })) {
            settled.push(getStmt.get({ id }) as MessageRow);
          }
        }
        return settled;
      })();
    },
    /** Hand-offs started since a wall-clock time, oldest first (to rebuild the pacing). */
    handoffsSince: (since: number) => handoffsStmt.all({ since }) as { at: number; segments: number; via: 'sync' | 'queue' }[],
    count: () => (countStmt.get({ status: null }) as { n: number }).n,
  };
}

export type MessageStore = ReturnType<typeof createMessageStore>;
