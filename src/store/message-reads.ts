// What the message store answers without changing anything: one message, a page of the
// history, the messages awaiting their sent-box confirmation, the unfinished hand-offs.
import type { ProcessGroup } from '../core/handoff-group.js';
import type { MessageStatus } from './message-record.js';
import type { MessageRow } from './message-rows.js';
import type { Statements } from './message-statements.js';

/** What the store answers without changing anything. */
export function messageReaders(q: Statements) {
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
    claimedSmsStoreIds: (among: readonly number[]) => new Set((q.claimedStmt.all({ ids: JSON.stringify(among) }) as { id: number }[]).map((r) => r.id)),
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
