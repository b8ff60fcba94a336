// Settling a message (queued -> sent | failed, whichever path: the hand-off, the sent-box
// confirmation, expiry, an interrupted hand-off): the status change, its roll-up and its
// sms.sent / sms.failed event in the outbox, one transaction each call; the outbox announces
// it as `message.settled` after the commit.
import type { Db } from './database.js';
import { makeEvent, type SettledEvent } from './event-record.js';
import type { Reason } from './message-record.js';
import { toMessageRecord, type MessageRow } from './message-rows.js';
import type { Statements } from './message-rows.js';
import type { OutboxStore } from './outbox.js';
import type { StatsStore } from './stats.js';
import { transaction } from './transaction.js';

export interface Settlement {
  status: 'sent' | 'failed';
  reason: Reason | null;
  billedSegments: number;
  at: number;
  handedOff: boolean;
  /** The phone's SMS store row that confirmed it, if any. */
  smsStoreId?: number | null;
}

/** The event a settled message makes: sms.sent, or sms.failed (expired and interrupted included). */
export function settledEvent(row: MessageRow, at: number): SettledEvent {
  return makeEvent(row.status === 'sent' ? 'sms.sent' : 'sms.failed', toMessageRecord(row), at);
}

/** Settling: the status change, its roll-up and its event, one transaction each call. */
export function messageSettling(
  db: Db,
  q: Statements,
  stats: StatsStore,
  outbox: Pick<OutboxStore, 'record'> | undefined,
) {
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
