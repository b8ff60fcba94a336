// The opt-out list at the queue's intake (POST /api/messages, MQTT sends): inside the
// transaction that records a request's messages, each one to a listed recipient is settled
// at once as failed with reason opted_out (never handed off, billed 0, its sms.failed event
// in the same commit); the others stay queued. The opt-out feature's own answers are never
// blocked (opt-out-list.ts blocks, by the message's origin).
import type { MessageRow, MessageStore } from '../store/messages.js';
import type { OptOutList } from './opt-out-list.js';

export type OptOutCheck = Pick<OptOutList, 'blocks'>;

/** The rows as stored, those to listed recipients settled failed/opted_out (inside the caller's transaction). */
type IntakeDeps = { store: Pick<MessageStore, 'settle' | 'get'>; optOuts?: OptOutCheck | undefined };

export function failOptedOut(deps: IntakeDeps, rows: MessageRow[]): MessageRow[] {
  const { optOuts, store } = deps;
  if (!optOuts) return rows;
  return rows.map((row) => {
    if (!optOuts.blocks(row.sendTo, row.origin)) return row;
    store.settle(row.id, {
      status: 'failed',
      reason: 'opted_out',
      billedSegments: 0,
      at: row.createdAt,
      handedOff: false,
    });
    return store.get(row.id) ?? row;
  });
}

/**
 * At its hand-off (sms/queue-pick.ts): a queued message whose recipient opted out since it
 * was accepted becomes failed/opted_out, never handed off. True when it did.
 */
export function failIfOptedOut(
  deps: { store: Pick<MessageStore, 'settle'>; optOuts: OptOutCheck },
  row: MessageRow,
  now: number,
): boolean {
  if (!deps.optOuts.blocks(row.sendTo, row.origin)) return false;
  return deps.store.settle(row.id, {
    status: 'failed',
    reason: 'opted_out',
    billedSegments: 0,
    at: now,
    handedOff: false,
  });
}
