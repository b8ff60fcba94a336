// Which sent message a received SMS answers (decisions.md "Replies"): the newest message
// with status `sent` handed off to the sender's number within the reply window, or one the
// phone accepted that still waits for its sent-box confirmation (real mode: `queued` with
// its hand-off recorded, for up to 2 minutes): a reply proves it went out, and the replies
// that matter most come within those minutes ("Reply 1 to disarm"). Numbers are
// compared as the send path normalizes them (sms/recipient.ts: spaces, dashes, dots and
// parentheses removed), with or without the leading + ("+49151..." and "49151..." are the
// same, as GET /api/inbox's from filter has them; national and international forms are
// not). One lookup through the index of migration 10 (send_to, handed_off_at) on sent
// messages: its work does not grow with the history.
import type { Db } from './database.js';
import { tagsOf, type Tags } from './message-tags.js';

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

/** The newest sent (or handed-off, awaiting confirmation) message to either form of a number within [@since, @until] (index messages_sent_to). */
export const NEWEST_SENT_TO_SQL = `
  SELECT id, tags FROM messages
  WHERE handed_off_at IS NOT NULL AND status IN ('sent', 'queued') AND send_to IN (@plain, @plus) AND handed_off_at >= @since AND handed_off_at <= @until
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
