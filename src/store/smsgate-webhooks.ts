// The smsgate_webhooks table, the only module that writes it: webhook registrations in SMSGate's
// dialect (one event each; the same id again replaces the registration). Their deliveries are
// the outbox's rows (store/outbox.ts) on a lane of their own, target `smsgate:<id>`, so removing a
// registration removes its pending deliveries in the same transaction.
import { transaction } from './transaction.js';
import type { Db } from './database.js';

/** A registration's lane in webhook_deliveries.target (never an http(s) URL, so never a native target's). */
export const SMSGATE_LANE_PREFIX = 'smsgate:';
export const smsgateLane = (id: string) => `${SMSGATE_LANE_PREFIX}${id}`;

export interface SmsgateWebhookRow {
  id: string;
  url: string;
  event: string;
  createdAt: number;
}

function statements(db: Db) {
  const columns = 'id, url, event, created_at AS createdAt';
  return {
    upsert: db.prepare(
      `INSERT INTO smsgate_webhooks (id, url, event, created_at) VALUES (@id, @url, @event, @at)
       ON CONFLICT (id) DO UPDATE SET url = excluded.url, event = excluded.event`,
    ),
    list: db.prepare(`SELECT ${columns} FROM smsgate_webhooks ORDER BY created_at, id`),
    byEvent: db.prepare(`SELECT ${columns} FROM smsgate_webhooks WHERE event = @event ORDER BY created_at, id`),
    countEvent: db.prepare(`SELECT COUNT(*) AS n FROM smsgate_webhooks WHERE event = @event`),
    drop: db.prepare(`DELETE FROM smsgate_webhooks WHERE id = @id`),
    dropDeliveries: db.prepare(`DELETE FROM webhook_deliveries WHERE target = @lane`),
    // The id the inbox gave a received SMS (in_...), from the phone's _id, inside the transaction that stored it.
    inboxId: db.prepare(`SELECT id FROM inbox_messages WHERE sms_id = @smsId ORDER BY seq DESC LIMIT 1`),
  };
}

export function createSmsgateWebhooksTable(db: Db) {
  const s = statements(db);
  const remove = transaction(db, (id: string): void => {
    s.dropDeliveries.run({ lane: smsgateLane(id) });
    s.drop.run({ id });
  });
  return {
    list: () => s.list.all() as SmsgateWebhookRow[],
    /** The registrations of one event, oldest first. */
    forEvent: (event: string) => s.byEvent.all({ event }) as SmsgateWebhookRow[],
    count: (event: string) => (s.countEvent.get({ event }) as { n: number }).n,
    /** Adds or replaces (same id) a registration; a replaced one keeps its pending deliveries and createdAt. */
    replace: transaction(db, (row: Omit<SmsgateWebhookRow, 'createdAt'>, at: number): SmsgateWebhookRow => {
      s.upsert.run({ ...row, at });
      return (s.list.all() as SmsgateWebhookRow[]).find((r) => r.id === row.id)!;
    }),
    /** Removes a registration with its pending deliveries (an unknown id: nothing). */
    remove,
    /** The lane's registration removed (its target answered 410 Gone). */
    removeLane(lane: string): void {
      if (lane.startsWith(SMSGATE_LANE_PREFIX)) remove(lane.slice(SMSGATE_LANE_PREFIX.length));
    },
    inboxIdOf: (smsId: number) => (s.inboxId.get({ smsId }) as { id: string } | undefined)?.id,
  };
}

export type SmsgateWebhooksTable = ReturnType<typeof createSmsgateWebhooksTable>;
