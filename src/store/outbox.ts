// The persisted webhook outbox: events (webhook_events) and one delivery row per enabled
// target and event (webhook_deliveries). enqueue() joins the transaction of the change that
// causes the event (a message settles, an SMS arrives), so a crash loses none; once that
// transaction committed, the listener (onCommitted: webhook delivery and the MQTT bridge,
// wired by server/compose.ts) hears of the event, once; a rolled-back event is never heard
// of (store/transaction.ts). Delivery's rules (order, retries) are in events/.
import type { Db } from './database.js';
import type { WebhookEvent } from './event-record.js';
import { afterCommit, transaction } from './transaction.js';
import type { TargetStatus, WebhookTargetsTable } from './webhook-targets.js';

export type { TargetStatus } from './webhook-targets.js';

/** The oldest pending delivery of one target. */
export interface Head {
  seq: number;
  eventId: string;
  type: string;
  target: string;
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  body: string;
}

export interface OutboxOptions {
  /**
   * Told of every event made (targets or not) once the transaction that made it committed;
   * `queued`: stored for at least one target (delivery has work).
   */
  onCommitted?: (event: WebhookEvent, queued: boolean) => void;
}

function statements(db: Db) {
  return {
    dropDeliveries: db.prepare(`DELETE FROM webhook_deliveries WHERE target = @url`),
    insertEvent: db.prepare(`INSERT INTO webhook_events (id, type, created_at, body) VALUES (@id, @type, @createdAt, @body)`),
    insertDelivery: db.prepare(`INSERT INTO webhook_deliveries (event_id, target, next_attempt_at) VALUES (@eventId, @target, @at)`),
    heads: db.prepare(`
      SELECT d.seq, d.event_id AS eventId, e.type, d.target, d.attempts, d.next_attempt_at AS nextAttemptAt,
             e.created_at AS createdAt, e.body
      FROM webhook_deliveries d
      JOIN webhook_events e ON e.id = d.event_id
      JOIN webhook_targets t ON t.url = d.target
      WHERE t.disabled_at IS NULL
        AND d.seq = (SELECT MIN(seq) FROM webhook_deliveries WHERE target = d.target)
    `),
    deleteDelivery: db.prepare(`DELETE FROM webhook_deliveries WHERE seq = @seq`),
    retry: db.prepare(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = @next, last_error = @error WHERE seq = @seq`,
    ),
  };
}

export function createOutboxStore(db: Db, targets: WebhookTargetsTable, opts: OutboxOptions = {}) {
  const s = statements(db);

  /** A target and its pending deliveries (the events stay for the other targets). */
  const removeTarget = transaction(db, (url: string) => {
    s.dropDeliveries.run({ url });
    targets.drop(url);
  });

  return {
    removeTarget,
    /**
     * Makes the stored env targets those of SMS_GATEWAY_WEBHOOK_URLS (a removed target's
     * pending events go too); targets registered over the API stay. Every target gets an id.
     */
    syncTargets: transaction(db, (urls: string[], at: number = Date.now()) => {
      for (const url of targets.syncEnv(urls, at)) removeTarget(url);
      targets.giveIds(at);
    }) as (urls: string[], at?: number) => void,
    /**
     * Stores the event for every enabled target, inside the causing change's transaction
     * (its own when there is none); the listener hears of it after the commit. False when
     * no target is enabled (then only the listener hears of it).
     */
    enqueue: transaction(db, (event: WebhookEvent, at: number): boolean => {
      const urls = targets.enabledUrls();
      if (urls.length > 0) {
        s.insertEvent.run({ id: event.id, type: event.type, createdAt: at, body: JSON.stringify(event) });
        for (const target of urls) s.insertDelivery.run({ eventId: event.id, target, at });
      }
      const listener = opts.onCommitted;
      if (listener) afterCommit(db, () => listener(event, urls.length > 0));
      return urls.length > 0;
    }),
    heads: () => s.heads.all() as Head[],
    delivered: transaction(db, (h: Head, at: number) => {
      s.deleteDelivery.run({ seq: h.seq });
      targets.delivered(h.target, at);
    }),
    /** A failed attempt: retried at `next`, or given up (expired) when next is null. */
    failed: transaction(db, (h: Head, at: number, error: string, next: number | null) => {
      targets.failedAttempt(h.target, at, error);
      if (next === null) {
        s.deleteDelivery.run({ seq: h.seq });
        targets.expired(h.target);
      } else {
        s.retry.run({ seq: h.seq, next, error });
      }
    }),
    /** 410 Gone: the target is switched off and its pending events dropped. */
    disable: transaction(db, (url: string, at: number, error: string) => {
      targets.disable(url, at, error);
      s.dropDeliveries.run({ url });
    }),
    enable: (url: string) => targets.enable(url),
    status: (): TargetStatus[] => targets.status(),
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
