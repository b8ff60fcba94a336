// SMSGate's message ids: one SMSGate message covers the records of its recipients (one msg_ record
// each, in the order given). The lines are written in the transaction that queues the records; a
// record leaving the history takes its line with it (a trigger). A page of GET /messages is read
// here, each message's state worked out from its records' as SMSGate does (any waiting: Pending, ...).
import type { Db } from './database.js';
import { COLUMNS, type MessageRow } from './message-rows.js';

/** The states GET /messages filters by (SMSGate's names). */
export const SMSGATE_LIST_STATES = ['Pending', 'Processed', 'Sent', 'Failed', 'Cancelled'] as const;
export type SmsgateListState = (typeof SMSGATE_LIST_STATES)[number];

/** A message's state from its records: any waiting, any cancelled, any handing off, all failed, else sent. */
const GROUP_STATE = `CASE
  WHEN SUM(m.status = 'queued' AND m.handoff_started_at IS NULL) > 0 THEN 'Pending'
  WHEN SUM(m.status = 'cancelled') > 0 THEN 'Cancelled'
  WHEN SUM(m.status = 'queued') > 0 THEN 'Processed'
  WHEN SUM(m.status = 'failed') = COUNT(*) THEN 'Failed'
  ELSE 'Sent' END`;

const GROUPS = `SELECT g.smsgate_id AS id, MAX(g.created_at) AS createdAt, ${GROUP_STATE} AS state
  FROM smsgate_messages g JOIN messages m ON m.id = g.message_id
  WHERE g.created_at BETWEEN @from AND @to GROUP BY g.smsgate_id`;

export interface SmsgatePageQuery {
  state: SmsgateListState | undefined;
  /** ms since epoch, inclusive. */
  from: number;
  to: number;
  limit: number;
  offset: number;
}

export function createSmsgateMessageStore(db: Db) {
  const linkStmt = db.prepare(
    `INSERT INTO smsgate_messages (message_id, smsgate_id, position, created_at) ` +
      `VALUES (@messageId, @smsgateId, @position, @at)`,
  );
  const takenStmt = db.prepare(`SELECT 1 FROM smsgate_messages WHERE smsgate_id = @id LIMIT 1`);
  const membersStmt = db.prepare(
    `SELECT ${COLUMNS} FROM messages JOIN (SELECT message_id, position FROM smsgate_messages ` +
      `WHERE smsgate_id = @id) g ON messages.id = g.message_id ORDER BY g.position`,
  );
  const ofMessageStmt = db.prepare(`SELECT smsgate_id AS id FROM smsgate_messages WHERE message_id = @messageId`);
  const pageStmt = db.prepare(
    `SELECT id FROM (${GROUPS}) WHERE (@state IS NULL OR state = @state) ` +
      `ORDER BY createdAt DESC, id DESC LIMIT @limit OFFSET @offset`,
  );
  const countStmt = db.prepare(`SELECT COUNT(*) AS n FROM (${GROUPS}) WHERE (@state IS NULL OR state = @state)`);

  return {
    /** Records `messageIds` (in recipient order) as SMSGate message `smsgateId`; inside the queueing transaction. */
    link(smsgateId: string, messageIds: readonly string[], at: number): void {
      messageIds.forEach((messageId, position) => linkStmt.run({ messageId, smsgateId, position, at }));
    },
    /** Whether an SMSGate message with this id is known (a new one with it is refused). */
    taken: (smsgateId: string): boolean => takenStmt.get({ id: smsgateId }) !== undefined,
    /** The records of an SMSGate message, in recipient order (empty: unknown, or gone from the history). */
    members: (smsgateId: string): MessageRow[] => membersStmt.all({ id: smsgateId }) as MessageRow[],
    /** The SMSGate message id a record belongs to, or undefined (a record queued another way). */
    smsgateIdOfMessage(messageId: string): string | undefined {
      return (ofMessageStmt.get({ messageId }) as { id: string } | undefined)?.id;
    },
    /** A page of SMSGate message ids, newest first, and how many match in all. */
    page(q: SmsgatePageQuery): { ids: string[]; total: number } {
      const params = { state: q.state ?? null, from: q.from, to: q.to };
      const ids = (pageStmt.all({ ...params, limit: q.limit, offset: q.offset }) as { id: string }[]).map((r) => r.id);
      return { ids, total: (countStmt.get(params) as { n: number }).n };
    },
  };
}

export type SmsgateMessageStore = ReturnType<typeof createSmsgateMessageStore>;
