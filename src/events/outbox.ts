// The persisted webhook outbox: targets, events and one delivery row per target and event.
// enqueue() runs inside the transaction of the change that causes the event, so a crash
// loses none. Delivery (events/delivery.ts) is at least once, per target in order (the
// oldest pending event of a target goes first); 2xx = delivered, 410 = the target is
// switched off, anything else is retried with exponential backoff and jitter (first retry
// within 30 s, at most 1 h apart) for up to 24 hours. An optional listener (the MQTT
// bridge, wired in server/compose.ts) hears of every event once its transaction committed:
// the event's id is written with it (event_announcements) and looked for right after
// (setImmediate); a rolled-back event is never announced.
import { newId } from '../core/ids.js';
import type { Db } from '../store/database.js';
import type { WebhookEvent } from './events.js';

export const DELIVERY_TIMEOUT_MS = 10_000;
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
export const MAX_RETRY_DELAY_MS = 3600_000;
const FIRST_RETRY_MS = 15_000;

/** Delay before retry n (1-based): 15 s, 30 s, 60 s ... capped at 1 h, each ±20 %. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

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

export interface TargetStatus {
  id: string;
  url: string;
  source: 'env' | 'api';
  disabled: boolean;
  disabledAt: number | null;
  pending: number;
  delivered: number;
  expired: number;
  failedAttempts: number;
  lastSuccessAt: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
}

export interface OutboxOptions {
  /** Told of every event made (targets or not), once the causing transaction committed. */
  onEvent?: (event: WebhookEvent) => void;
}

export function createOutboxStore(db: Db, opts: OutboxOptions = {}) {
  // A URL of SMS_GATEWAY_WEBHOOK_URLS that was registered over the API becomes an env target.
  const insertTarget = db.prepare(
    `INSERT INTO webhook_targets (url, id, source, created_at) VALUES (@url, @id, 'env', @at)
     ON CONFLICT (url) DO UPDATE SET source = 'env'`,
  );
  const targetsStmt = db.prepare(`SELECT url, source, api_registered AS apiRegistered, disabled_at AS disabledAt FROM webhook_targets`);
  const noIdStmt = db.prepare(`SELECT url FROM webhook_targets WHERE id IS NULL`);
  const giveIdStmt = db.prepare(`UPDATE webhook_targets SET id = @id, created_at = COALESCE(created_at, @at) WHERE url = @url`);
  const dropTarget = db.prepare(`DELETE FROM webhook_targets WHERE url = @url`);
  // An env target first registered over the API goes back to being an API target.
  const backToApi = db.prepare(`UPDATE webhook_targets SET source = 'api' WHERE url = @url`);
  const announceStmt = db.prepare(`INSERT OR IGNORE INTO event_announcements (id) VALUES (@id)`);
  const announcedStmt = db.prepare(`SELECT 1 FROM event_announcements WHERE id = @id`);
  const unannounceStmt = db.prepare(`DELETE FROM event_announcements WHERE id = @id`);
  const clearAnnouncements = db.prepare(`DELETE FROM event_announcements`);
  const dropDeliveries = db.prepare(`DELETE FROM webhook_deliveries WHERE target = @url`);
  const insertEvent = db.prepare(`INSERT INTO webhook_events (id, type, created_at, body) VALUES (@id, @type, @createdAt, @body)`);
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (event_id, target, next_attempt_at) VALUES (@eventId, @target, @at)`,
  );
  const headsStmt = db.prepare(`
    SELECT d.seq, d.event_id AS eventId, e.type, d.target, d.attempts, d.next_attempt_at AS nextAttemptAt,
           e.created_at AS createdAt, e.body
    FROM webhook_deliveries d
    JOIN webhook_events e ON e.id = d.event_id
    JOIN webhook_targets t ON t.url = d.target
    WHERE t.disabled_at IS NULL
      AND d.seq = (SELECT MIN(seq) FROM webhook_deliveries WHERE target = d.target)
  `);
  const deleteDelivery = db.prepare(`DELETE FROM webhook_deliveries WHERE seq = @seq`);
  const retryStmt = db.prepare(
    `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = @next, last_error = @error WHERE seq = @seq`,
  );
  const targetOk = db.prepare(`UPDATE webhook_targets SET delivered = delivered + 1, last_success_at = @at WHERE url = @url`);
  const targetFailed = db.prepare(
    `UPDATE webhook_targets SET failed_attempts = failed_attempts + 1, last_error = @error, last_error_at = @at WHERE url = @url`,
  );
  const targetExpired = db.prepare(`UPDATE webhook_targets SET expired = expired + 1 WHERE url = @url`);
  const disableStmt = db.prepare(`UPDATE webhook_targets SET disabled_at = @at, last_error = @error, last_error_at = @at WHERE url = @url`);
  const enableStmt = db.prepare(`UPDATE webhook_targets SET disabled_at = NULL WHERE url = @url`);
  const statusStmt = db.prepare(`
    SELECT t.id, t.url, t.source, t.disabled_at AS disabledAt, t.delivered, t.expired, t.failed_attempts AS failedAttempts,
           t.last_success_at AS lastSuccessAt, t.last_error AS lastError, t.last_error_at AS lastErrorAt,
           (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.target = t.url) AS pending
    FROM webhook_targets t ORDER BY t.url
  `);

  /** A target and its pending deliveries (the events stay for the other targets). */
  const removeTarget = (url: string) => {
    dropDeliveries.run({ url });
    dropTarget.run({ url });
  };

  const enabledTargets = () =>
    (targetsStmt.all() as { url: string; disabledAt: number | null }[]).filter((t) => t.disabledAt === null).map((t) => t.url);

  return {
    removeTarget,
    /**
     * Makes the stored env targets those of SMS_GATEWAY_WEBHOOK_URLS (a removed target's
     * pending events go too); targets registered over the API stay. Every target gets an id.
     */
    syncTargets: db.transaction((urls: string[], at: number = Date.now()) => {
      for (const url of urls) insertTarget.run({ url, id: newId('wh', at), at });
      for (const { url, source, apiRegistered } of targetsStmt.all() as { url: string; source: string; apiRegistered: number }[]) {
        if (source !== 'env' || urls.includes(url)) continue;
        if (apiRegistered) {
          backToApi.run({ url });
          continue;
        }
        removeTarget(url);
      }
      clearAnnouncements.run(); // left by a crash between a commit and its announcement
      // Targets stored before ids existed (0.1 homes).
      for (const { url } of noIdStmt.all() as { url: string }[]) giveIdStmt.run({ url, id: newId('wh', at), at });
    }) as (urls: string[], at?: number) => void,
    /** Stores the event for every enabled target. Call inside the causing change's transaction. */
    /** False when no target is enabled (then nothing is stored). */
    enqueue(event: WebhookEvent, at: number): boolean {
      const listener = opts.onEvent;
      if (listener) {
        announceStmt.run({ id: event.id });
        setImmediate(() => {
          try {
            if (announcedStmt.get({ id: event.id }) === undefined) return; // rolled back
          } catch {
            return; // the database was closed meanwhile (a stop)
          }
          try {
            unannounceStmt.run({ id: event.id });
          } catch {
            // a disk that refuses the delete: the row goes at the next start
          }
          listener(event);
        });
      }
      const targets = enabledTargets();
      if (targets.length === 0) return false;
      insertEvent.run({ id: event.id, type: event.type, createdAt: at, body: JSON.stringify(event) });
      for (const target of targets) insertDelivery.run({ eventId: event.id, target, at });
      return true;
    },
    heads: () => headsStmt.all() as Head[],
    delivered: db.transaction((h: Head, at: number) => {
      deleteDelivery.run({ seq: h.seq });
      targetOk.run({ url: h.target, at });
    }) as (h: Head, at: number) => void,
    failed: db.transaction((h: Head, at: number, error: string, next: number | null) => {
      targetFailed.run({ url: h.target, at, error });
      if (next === null) {
        deleteDelivery.run({ seq: h.seq });
        targetExpired.run({ url: h.target });
      } else {
        retryStmt.run({ seq: h.seq, next, error });
      }
    }) as (h: Head, at: number, error: string, next: number | null) => void,
    /** 410 Gone: the target is switched off and its pending events dropped. */
    disable: db.transaction((url: string, at: number, error: string) => {
      disableStmt.run({ url, at, error });
      dropDeliveries.run({ url });
    }) as (url: string, at: number, error: string) => void,
    enable(url: string) {
      enableStmt.run({ url });
    },
    status: () =>
      (statusStmt.all() as (Omit<TargetStatus, 'disabled'> & { disabledAt: number | null })[]).map((t) => ({
        ...t,
        disabled: t.disabledAt !== null,
      })) as TargetStatus[],
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
