// The webhook_targets table, the only module that writes it: the targets of
// SMS_GATEWAY_WEBHOOK_URLS (source "env") and those registered over the API (source "api",
// api_registered stays set when an API URL was also listed in the environment), whether a
// target is switched off (410 Gone) and its delivery counters. The pending deliveries of a
// target are the outbox's (store/outbox.ts), which removes a target with them.
import { newId } from '../core/ids.js';
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import { transactions } from './transaction.js';

export interface TargetRow {
  id: string;
  url: string;
  source: 'env' | 'api';
  disabledAt: number | null;
  createdAt: number | null;
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

function statements(db: Db) {
  return {
    // A URL of SMS_GATEWAY_WEBHOOK_URLS that was registered over the API becomes an env target.
    upsertEnv: db.prepare(
      `INSERT INTO webhook_targets (url, id, source, created_at) VALUES (@url, @id, 'env', @at)
       ON CONFLICT (url) DO UPDATE SET source = 'env'`,
    ),
    all: db.prepare(
      `SELECT url, source, api_registered AS apiRegistered, disabled_at AS disabledAt FROM webhook_targets`,
    ),
    noId: db.prepare(`SELECT url FROM webhook_targets WHERE id IS NULL`),
    giveId: db.prepare(`UPDATE webhook_targets SET id = @id, created_at = COALESCE(created_at, @at) WHERE url = @url`),
    drop: db.prepare(`DELETE FROM webhook_targets WHERE url = @url`),
    // An env target first registered over the API goes back to being an API target.
    backToApi: db.prepare(`UPDATE webhook_targets SET source = 'api' WHERE url = @url`),
    list: db.prepare(
      `SELECT id, url, source, disabled_at AS disabledAt, created_at AS createdAt FROM webhook_targets
       WHERE id IS NOT NULL ORDER BY created_at, id`,
    ),
    countApi: db.prepare(`SELECT COUNT(*) AS n FROM webhook_targets WHERE source = 'api'`),
    insertApi: db.prepare(
      `INSERT INTO webhook_targets (url, id, source, created_at, api_registered) VALUES (@url, @id, 'api', @at, 1)`,
    ),
    markRegistered: db.prepare(`UPDATE webhook_targets SET api_registered = 1 WHERE id = @id`),
    byId: db.prepare(`SELECT id, url, source FROM webhook_targets WHERE id = @id`),
    ok: db.prepare(`UPDATE webhook_targets SET delivered = delivered + 1, last_success_at = @at WHERE url = @url`),
    failed: db.prepare(
      `UPDATE webhook_targets SET failed_attempts = failed_attempts + 1, last_error = @error, last_error_at = @at ` +
        `WHERE url = @url`,
    ),
    expired: db.prepare(`UPDATE webhook_targets SET expired = expired + 1 WHERE url = @url`),
    disable: db.prepare(
      `UPDATE webhook_targets SET disabled_at = @at, last_error = @error, last_error_at = @at WHERE url = @url`,
    ),
    enable: db.prepare(`UPDATE webhook_targets SET disabled_at = NULL WHERE url = @url`),
    status: db.prepare(`
      SELECT t.id, t.url, t.source, t.disabled_at AS disabledAt, t.delivered, t.expired,
             t.failed_attempts AS failedAttempts,
             t.last_success_at AS lastSuccessAt, t.last_error AS lastError, t.last_error_at AS lastErrorAt,
             (SELECT COUNT(*) FROM webhook_deliveries d WHERE d.target = t.url) AS pending
      FROM webhook_targets t ORDER BY t.url
    `),
  };
}

export function createWebhookTargetsTable(db: Db) {
  const s = statements(db);
  const tx = transactions(db);
  return {
    /**
     * Read, check, then write as one (BEGIN IMMEDIATE): the API's add and remove (refused when gateway.db was deleted).
     */
    exclusive: <R>(fn: () => R): R =>
      tx.immediate(() => {
        if (databaseFileGone(db)) throw fileGoneError();
        return fn();
      }),
    /** Targets with an id, oldest first. */
    list: () => s.list.all() as TargetRow[],
    /** Targets registered over the API. */
    registeredCount: () => (s.countApi.get() as { n: number }).n,
    byId: (id: string) => s.byId.get({ id }) as Pick<TargetRow, 'id' | 'url' | 'source'> | undefined,
    insertApi(url: string, id: string, at: number): void {
      s.insertApi.run({ url, id, at });
    },
    /** Stays registered when it leaves SMS_GATEWAY_WEBHOOK_URLS. */
    markRegistered(id: string): void {
      s.markRegistered.run({ id });
    },
    /**
     * Makes `urls` env targets (new ones get an id) and turns env targets no longer listed
     * but registered over the API back into API targets; returns the env-only ones to remove.
     */
    syncEnv(urls: string[], at: number): string[] {
      for (const url of urls) s.upsertEnv.run({ url, id: newId('wh', at), at });
      const gone: string[] = [];
      for (const { url, source, apiRegistered } of s.all.all() as {
        url: string;
        source: string;
        apiRegistered: number;
      }[]) {
        if (source !== 'env' || urls.includes(url)) continue;
        if (apiRegistered) s.backToApi.run({ url });
        else gone.push(url);
      }
      return gone;
    },
    /** Targets stored before ids existed (0.1 homes) get one. */
    giveIds(at: number): void {
      for (const { url } of s.noId.all() as { url: string }[]) s.giveId.run({ url, id: newId('wh', at), at });
    },
    enabledUrls: () =>
      (s.all.all() as { url: string; disabledAt: number | null }[])
        .filter((t) => t.disabledAt === null)
        .map((t) => t.url),
    drop(url: string): void {
      s.drop.run({ url });
    },
    delivered(url: string, at: number): void {
      s.ok.run({ url, at });
    },
    failedAttempt(url: string, at: number, error: string): void {
      s.failed.run({ url, at, error });
    },
    expired(url: string): void {
      s.expired.run({ url });
    },
    disable(url: string, at: number, error: string): void {
      s.disable.run({ url, at, error });
    },
    enable(url: string): void {
      s.enable.run({ url });
    },
    status: () =>
      (s.status.all() as (Omit<TargetStatus, 'disabled'> & { disabledAt: number | null })[]).map((t) => ({
        ...t,
        disabled: t.disabledAt !== null,
      })) as TargetStatus[],
  };
}

export type WebhookTargetsTable = ReturnType<typeof createWebhookTargetsTable>;
