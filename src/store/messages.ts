// The send history: one row per accepted message; the newest 1000 settled ones are kept
// (a trigger prunes; a queued message is never pruned). Every status change and its
// roll-up are one transaction. Settling (queued -> sent | failed, whichever path: the
// hand-off, the sent-box confirmation, expiry, an interrupted hand-off) also makes the
// message's sms.sent / sms.failed event in that transaction (the outbox); it is announced
// as `message.settled` on the event path once the transaction committed. Internal columns (hand-off
// times, idempotency data) never leave the store except through MessageRow.
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import { makeEvent, type WebhookEvent } from './event-record.js';
import type { OutboxStore } from './outbox.js';
import { transaction } from './transaction.js';
import type { ProcessGroup } from '../core/handoff-group.js';
import type { StatsStore } from './stats.js';
import type { MessageStatus, Reason } from './message-record.js';
import { COLUMNS, toMessageRecord, type MessageRow, type NewMessage } from './message-rows.js';

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
  /** Where a settled message's event is stored (in the settling transaction) and announced from. */
  outbox?: Pick<OutboxStore, 'record'>;
}

/** The event a settled message makes: sms.sent, or sms.failed (expired and interrupted included). */
export function settledEvent(row: MessageRow, at: number): WebhookEvent {
  return makeEvent(row.status === 'sent' ? 'sms.sent' : 'sms.failed', { ...toMessageRecord(row) }, at);
}

/**
 * Which of @ids (a JSON array: one read of the phone's store, at most 50) are matched to a
 * message, through the index of migration 9: the work does not grow with the history.
 */
export const CLAIMED_AMONG_SQL = `SELECT sms_store_id AS id FROM messages WHERE sms_store_id IN (SELECT value FROM json_each(@ids))`;

function statements(db: Db) {
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
  const claimedStmt = db.prepare(CLAIMED_AMONG_SQL);
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

  return {
    insertStmt,
    getStmt,
    byKeyStmt,
    handoffStmt,
    cancelStmt,
    settleStmt,
    handedOffStmt,
    pendingConfirmStmt,
    claimedStmt,
    responseStmt,
    interruptedStmt,
    processStmt,
    listStmt,
    countStmt,
    handoffsStmt,
  };
}

type Statements = ReturnType<typeof statements>;

/** What the store answers without changing anything. */
function readers(q: Statements) {
  return {
    get: (id: string) => q.getStmt.get({ id }) as MessageRow | undefined,
    byIdempotencyKey: (key: string) => q.byKeyStmt.get({ key }) as MessageRow | undefined,
    list(p: { limit: number; offset: number; status?: MessageStatus | undefined }) {
      const status = p.status ?? null;
      return {
        rows: q.listStmt.all({ status, limit: p.limit, offset: p.offset }) as MessageRow[],
        total: (q.countStmt.get({ status }) as { n: number }).n,
      };
    },
    /** Handed off, not yet confirmed (resumed after a restart). */
    awaitingConfirmation: () => q.pendingConfirmStmt.all() as MessageRow[],
    /** Which of these SMS store ids are already matched to a message. */
    claimedSmsStoreIds: (among: readonly number[]) =>
      new Set((q.claimedStmt.all({ ids: JSON.stringify(among) }) as { id: number }[]).map((r) => r.id)),
    /**
     * At start, before the lane runs: queued messages whose hand-off began (or, for a 0.1
     * synchronous row, may have begun) and never completed, with the hand-off's process group
     * when it was recorded.
     */
    unfinishedHandoffs(): { row: MessageRow; group: ProcessGroup | null }[] {
      return (q.interruptedStmt.all() as (MessageRow & { pgid: number | null; boot: string | null; startTicks: number | null })[]).map(
        ({ pgid, boot, startTicks, ...row }) => ({ row, group: pgid === null ? null : { pgid, boot, startTicks } }),
      );
    },
    /** Hand-offs started since a wall-clock time, oldest first (to rebuild the pacing). */
    handoffsSince: (since: number) => q.handoffsStmt.all({ since }) as { at: number; segments: number; via: 'sync' | 'queue' }[],
    count: () => (q.countStmt.get({ status: null }) as { n: number }).n,
  };
}

/** Settling: the status change, its roll-up and its event, one transaction each call. */
function settling(db: Db, q: Statements, stats: StatsStore, outbox: MessageStoreOptions['outbox']) {
  const { getStmt, settleStmt } = q;
  /** queued -> sent | failed, its roll-up and its event: one transaction. */
  const settleTx = transaction(db, (id: string, s: Settlement) => {
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
    outbox?.record('message.settled', settledEvent(getStmt.get({ id }) as MessageRow, s.at), s.at);
    return true;
  });

  return {
    /**
     * queued -> sent | failed, with the roll-up and its sms.sent / sms.failed event, in one
     * transaction; the event is announced once it committed. False if it was not queued.
     */
    settle(id: string, s: Settlement): boolean {
      return settleTx(id, s);
    },
    /** These queued, not handed-off messages become failed/interrupted (never resent), in one transaction. */
    settleInterrupted: transaction(db, (ids: string[], at: number): MessageRow[] => {
      const settled: MessageRow[] = [];
      for (const id of ids) {
        const row = getStmt.get({ id }) as MessageRow | undefined;
        if (!row || row.handedOffAt !== null) continue; // handed off: the confirmation settles it
        if (settleTx(id, { status: 'failed', reason: 'interrupted', billedSegments: 0, at, handedOff: false })) {
          settled.push(getStmt.get({ id }) as MessageRow);
        }
      }
      return settled;
    }),
  };
}

export function createMessageStore(db: Db, stats: StatsStore, opts: MessageStoreOptions = {}) {
  const q = statements(db);
  const { insertStmt, getStmt, handoffStmt, cancelStmt, handedOffStmt, responseStmt, processStmt } = q;
  const syncNormal = db.prepare('PRAGMA synchronous = NORMAL');
  const syncFull = db.prepare('PRAGMA synchronous = FULL');
  /**
   * A commit without an fsync (synchronous=NORMAL for it alone; inside an enclosing
   * transaction, that one's commit decides). It survives the gateway being killed (the WAL
   * is in the system's page cache), not a power cut before the next fsync'd commit, which
   * makes it durable too. Only for marks whose loss a restart reads truthfully.
   */
  const withoutFsync = (write: () => void): void => {
    const lazy = !db.inTransaction;
    if (lazy) syncNormal.run();
    try {
      write();
    } finally {
      if (lazy) syncFull.run();
    }
  };

  const insertTx = transaction(db, (ms: NewMessage[], handoffStartedAt: number | null) => {
    if (databaseFileGone(db)) throw fileGoneError();
    for (const m of ms) {
      insertStmt.run({ via: 'sync', sendAt: null, expiresAt: null, ...m, handoffStartedAt });
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
    ...readers(q),
    ...settling(db, q, stats, opts.outbox),
    /** Commits the message as queued, with its roll-up, before any hand-off. */
    insertQueued(m: NewMessage): void {
      insertTx([m], null);
    },
    /**
     * Several messages (one request's recipients) in one transaction, all or none; `answer`
     * builds the response from the stored rows, saved with the first for Idempotency-Key replays.
     */
    insertBatch: transaction(db, (ms: NewMessage[], answer?: (rows: MessageRow[]) => { status: number | null; body: unknown }): MessageRow[] => {
      insertTx(ms, null);
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

export type MessageStore = ReturnType<typeof createMessageStore>;
