// What the message store answers without changing anything: one message, a page of the
// history (optionally by status and searched: store/search-sql.ts), the messages awaiting
// their sent-box confirmation, the unfinished hand-offs.
import type { ProcessGroup } from '../core/ids.js';
import type { Db } from './database.js';
import type { MessageStatus } from './message-record.js';
import { COLUMNS, type MessageRow } from './message-rows.js';
import type { Statements } from './message-statements.js';
import { searchConditions, searchStatements, whereOf, type SearchColumns, type SearchFilter } from './search-sql.js';

/**
 * A search compares the creation time (index messages_newest, or messages_status_newest with a
 * status), the number as sent, the text, a tag.
 */
const SEARCHED: SearchColumns = { time: 'created_at', number: "ltrim(send_to, '+')", text: ['body'], tags: 'tags' };

/** The gateway's own answers (store/message-record.ts ORIGINS), which the auto-reply limits count. */
export const AUTOMATIC_ORIGINS = ['rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply'] as const;

/** What the store answers without changing anything. */
export function messageReaders(db: Db, q: Statements) {
  const statement = searchStatements(db);
  // Through index messages_automatic (migrations-0-5.ts): its condition is this IN list.
  const automatic = db.prepare(`
    SELECT COUNT(*) AS n FROM messages
    WHERE origin IN ('rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply') AND created_at > @since
      AND (@forms IS NULL OR send_to IN (SELECT value FROM json_each(@forms)))`);
  return {
    /**
     * How many automatic answers were recorded after `since` (wall-clock ms), to any number or
     * to one of `forms` (one number's writings, as sent).
     */
    automaticSince: (since: number, forms?: readonly string[]): number =>
      (automatic.get({ since, forms: forms === undefined ? null : JSON.stringify(forms) }) as { n: number }).n,
    get: (id: string) => q.getStmt.get({ id }) as MessageRow | undefined,
    byIdempotencyKey: (key: string) => q.byKeyStmt.get({ key }) as MessageRow | undefined,
    /** Newest first; the total counts every row of the same filter, so offsets page through it. */
    list(p: { limit: number; offset: number; status?: MessageStatus | undefined } & SearchFilter) {
      const { conditions, params } = searchConditions(SEARCHED, p);
      if (p.status !== undefined) conditions.unshift('status = @status');
      const where = whereOf(conditions);
      const filter = { ...params, ...(p.status === undefined ? {} : { status: p.status }) };
      const page = statement(`SELECT ${COLUMNS} FROM messages ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`);
      return {
        rows: page.all({ ...filter, limit: p.limit, offset: p.offset }) as MessageRow[],
        total: (statement(`SELECT COUNT(*) AS n FROM messages ${where}`).get(filter) as { n: number }).n,
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
