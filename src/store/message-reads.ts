// What the message store answers without changing anything: one message, a page of the
// history (optionally by status and searched: store/search-sql.ts), the messages awaiting
// their sent-box confirmation, the unfinished hand-offs.
import type { ProcessGroup } from '../core/ids.js';
import type { Db } from './database.js';
import { tagsOf, type MessageStatus, type Tags } from './message-record.js';
import { COLUMNS, type MessageRow, type Statements } from './message-rows.js';
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
      const page = statement(
        `SELECT ${COLUMNS} FROM messages ${where} ORDER BY created_at DESC, id DESC LIMIT @limit OFFSET @offset`,
      );
      return {
        rows: page.all({ ...filter, limit: p.limit, offset: p.offset }) as MessageRow[],
        total: (statement(`SELECT COUNT(*) AS n FROM messages ${where}`).get(filter) as { n: number }).n,
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
      return (
        q.interruptedStmt.all() as (MessageRow & {
          pgid: number | null;
          boot: string | null;
          startTicks: number | null;
        })[]
      ).map(({ pgid, boot, startTicks, ...row }) => ({
        row,
        group: pgid === null ? null : { pgid, boot, startTicks },
      }));
    },
    /** Hand-offs started since a wall-clock time, oldest first (to rebuild the pacing). */
    handoffsSince: (since: number) =>
      q.handoffsStmt.all({ since }) as { at: number; segments: number; via: 'sync' | 'queue' }[],
    count: () => (q.countStmt.get({ status: null }) as { n: number }).n,
  };
}

// --- replies
// Which sent message a received SMS answers (docs/receiving.md, replies): the newest message
// with status `sent` handed off to the sender's number within the reply window, or one the
// phone accepted that still waits for its sent-box confirmation (real mode: `queued` with
// its hand-off recorded, for up to 2 minutes): a reply proves it went out, and the replies
// that matter most come within those minutes ("Reply 1 to disarm"). Numbers are
// compared as the send path normalizes them (sms/recipient.ts: spaces, dashes, dots and
// parentheses removed), with or without the leading + ("+49151..." and "49151..." are the
// same, as GET /api/inbox's from filter has them; national and international forms are
// not). One lookup through the index of migration 10 (send_to, handed_off_at) on sent
// messages: its work does not grow with the history.
export interface InReplyTo {
  /** The message replied to (msg_...). */
  id: string;
  tags: Tags;
}

const DECORATION = /[ \-.()]/g;
const NUMBER = /^\+?[0-9]{3,15}$/;

/** The stored forms a sender's number can have in send_to: with and without the +; none for a name ("DHL"). */
export function sentToForms(from: string | null): string[] {
  if (from === null) return [];
  const number = from.replace(DECORATION, '');
  if (!NUMBER.test(number)) return [];
  const digits = number.replace(/^\+/, '');
  return [digits, `+${digits}`];
}

/**
 * The newest sent (or handed-off, awaiting confirmation) message to either form of a number within [@since, @until]
 * (index messages_sent_to).
 */
export const NEWEST_SENT_TO_SQL = `
  SELECT id, tags FROM messages
  WHERE handed_off_at IS NOT NULL AND status IN ('sent', 'queued') AND send_to IN (@plain, @plus)
    AND handed_off_at >= @since AND handed_off_at <= @until
  ORDER BY handed_off_at DESC, seq DESC LIMIT 1`;

export function createReplyLookup(db: Db) {
  const newestStmt = db.prepare(NEWEST_SENT_TO_SQL);
  return {
    /** The newest message sent to this sender in [since, until], or null. */
    newestSentTo(from: string | null, since: number, until: number): InReplyTo | null {
      const [plain, plus] = sentToForms(from);
      if (plain === undefined) return null;
      const row = newestStmt.get({ plain, plus, since, until }) as { id: string; tags: string | null } | undefined;
      return row ? { id: row.id, tags: tagsOf(row.tags) } : null;
    },
  };
}

export type ReplyLookup = ReturnType<typeof createReplyLookup>;
