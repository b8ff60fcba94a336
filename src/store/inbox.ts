// Received SMS (table inbox_messages, newest 1000): written by the inbox watcher in the
// transaction that announces them, read by GET /api/inbox newest first, optionally only
// those from one sender (compared by fromKey: the number as the phone stored it, without
// spaces, dashes, dots, parentheses or a leading +, letters in lower case) and searched
// (store/search-sql.ts: the sender, its contact name, the text, the time received). Also the keys
// of the SMS already announced (table inbox_seen, the newest SEEN_KEPT).
import * as z from 'zod';
import { newId } from '../core/ids.js';
import type { Db } from './database.js';
import { transactions } from './transaction.js';
import { TagsSchema } from './message-record.js';
import type { InReplyTo } from './message-reads.js';
import { searchConditions, searchStatements, whereOf, type SearchColumns, type SearchFilter } from './search-sql.js';

export const INBOX_KEPT = 1000;
/** Announced keys kept (newest first); far more than one poll of the watcher can read. */
export const SEEN_KEPT = 5000;

export const InboxRecordSchema = z.object({
  id: z.string().describe("in_...: the gateway's id of this received SMS"),
  from: z.string().nullable().describe('the sender as the phone stored it (a number, or a name such as "DHL")'),
  contact: z.string().nullable().describe("the phone's contact name for the sender, when one matches"),
  body: z.string(),
  receivedAt: z.string().nullable().describe('ISO 8601 (UTC); null when the phone reported an unreadable time'),
  simSlot: z.number().int().nullable().describe('always null: Termux:API does not say on which SIM an SMS arrived'),
  inReplyTo: z
    .object({ id: z.string().describe('the message replied to (msg_...)'), tags: TagsSchema })
    .nullable()
    .describe(
      'the newest message sent (status sent) to this number within SMS_GATEWAY_REPLY_WINDOW_HOURS when it arrived, ' +
        'with its tags; else null',
    ),
  keyword: z
    .string()
    .nullable()
    .describe('the keyword of the rule (GET /api/rules) it triggered when it arrived; else null'),
});

export type InboxRecord = z.infer<typeof InboxRecordSchema>;

export interface NewInboxMessage {
  smsId: number;
  from: string | null;
  contact: string | null;
  body: string;
  receivedAt: number | null;
  simSlot: number | null;
  /** What it replies to, decided when it is stored (store/message-replies.ts). */
  inReplyTo?: InReplyTo | null;
  /** The keyword of the rule it triggered, decided when it is stored (sms/rules.ts). */
  keyword?: string | null;
}

/** How a sender is compared: "+49 151-123" and "49151123" are the same; national and international forms are not. */
export function fromKey(from: string): string {
  return from
    .replace(/[\s\-.()]/g, '')
    .replace(/^\+/, '')
    .toLowerCase();
}

/**
 * A search compares the time received (at most 1000 rows, read in seq order: no index needed),
 * the sender as compared by fromKey, and as text the message, the contact name and the sender
 * (a name such as "DHL").
 */
const SEARCHED: SearchColumns = { time: 'received_at', number: 'from_key', text: ['body', 'contact', 'from_number'] };

interface Row {
  id: string;
  from_number: string | null;
  contact: string | null;
  body: string;
  received_at: number | null;
  sim_slot: number | null;
  in_reply_to: string | null;
  keyword: string | null;
}

const replyOf = (column: string | null): InReplyTo | null => {
  if (column === null) return null;
  try {
    return JSON.parse(column) as InReplyTo;
  } catch {
    return null;
  }
};

const toRecord = (r: Row): InboxRecord => ({
  id: r.id,
  from: r.from_number,
  contact: r.contact,
  body: r.body,
  receivedAt: r.received_at === null ? null : new Date(r.received_at).toISOString(),
  simSlot: r.sim_slot,
  inReplyTo: replyOf(r.in_reply_to),
  keyword: r.keyword,
});

export function createInboxStore(db: Db) {
  const insert = db.prepare(`
    INSERT INTO inbox_messages
      (id, sms_id, from_number, from_key, contact, body, received_at, sim_slot, stored_at, in_reply_to, keyword)
    VALUES (@id, @smsId, @from, @fromKey, @contact, @body, @receivedAt, @simSlot, @at, @inReplyTo, @keyword)`);
  const columns = 'id, from_number, contact, body, received_at, sim_slot, in_reply_to, keyword';
  const statement = searchStatements(db);
  const seenStmt = db.prepare(`SELECT 1 FROM inbox_seen WHERE key = @key`);
  const markSeenStmt = db.prepare(`INSERT OR IGNORE INTO inbox_seen (key, seen_at) VALUES (@key, @at)`);
  const pruneSeenStmt = db.prepare(
    `DELETE FROM inbox_seen WHERE key IN (SELECT key FROM inbox_seen ORDER BY seen_at DESC, rowid DESC LIMIT -1 ` +
      `OFFSET ${SEEN_KEPT})`,
  );

  const tx = transactions(db);
  return {
    /** Read, then write as one (BEGIN IMMEDIATE): the watcher's poll commits through this. */
    exclusive: <R>(fn: () => R): R => tx.immediate(fn),
    /** Whether an SMS with this key was announced. */
    seen: (key: string) => seenStmt.get({ key }) !== undefined,
    markSeen(key: string, at: number): void {
      markSeenStmt.run({ key, at });
    },
    /** Keeps the newest SEEN_KEPT keys. */
    pruneSeen(): void {
      pruneSeenStmt.run();
    },
    /** Stores one received SMS (call inside the watcher's transaction); the oldest beyond 1000 go. */
    add(m: NewInboxMessage, at: number): InboxRecord {
      const id = newId('in', at);
      const inReplyTo = m.inReplyTo ? JSON.stringify(m.inReplyTo) : null;
      const keyword = m.keyword ?? null;
      insert.run({ id, ...m, fromKey: m.from === null ? null : fromKey(m.from), at, inReplyTo, keyword });
      const row = {
        id,
        from_number: m.from,
        contact: m.contact,
        body: m.body,
        received_at: m.receivedAt,
        sim_slot: m.simSlot,
        in_reply_to: inReplyTo,
        keyword,
      };
      return toRecord(row);
    },
    /** Newest first; `from` compared by fromKey; the total counts every row of the same filter. */
    list(q: { limit: number; offset: number; from?: string | undefined } & SearchFilter): {
      rows: InboxRecord[];
      total: number;
    } {
      const { conditions, params } = searchConditions(SEARCHED, q);
      if (q.from !== undefined) conditions.unshift('from_key = @key');
      const where = whereOf(conditions);
      const filter = { ...params, ...(q.from === undefined ? {} : { key: fromKey(q.from) }) };
      const page = statement(
        `SELECT ${columns} FROM inbox_messages ${where} ORDER BY seq DESC LIMIT @limit OFFSET @offset`,
      );
      const rows = page.all({ ...filter, limit: q.limit, offset: q.offset }) as Row[];
      const total = (statement(`SELECT COUNT(*) AS n FROM inbox_messages ${where}`).get(filter) as { n: number }).n;
      return { rows: rows.map(toRecord), total };
    },
  };
}

export type InboxStore = ReturnType<typeof createInboxStore>;
