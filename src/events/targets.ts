// Webhook targets as the API shows and changes them: those of SMS_GATEWAY_WEBHOOK_URLS
// (source "env": listed, not removable) and those registered over the API (source "api":
// at most 20, kept in the database across restarts). A new target gets the events made
// from its registration on: the outbox gives an event to the targets enabled when it is made.
import { z } from 'zod';
import { GatewayError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { webhookUrlProblem } from '../core/webhook-url.js';
import type { Db } from '../store/database.js';
import type { OutboxStore } from './outbox.js';

export const MAX_API_TARGETS = 20;

export const WebhookTargetSchema = z.object({
  id: z.string().describe('wh_...'),
  url: z.string().describe('shown only to callers with the API key; logs and diagnostics show scheme, host and port'),
  source: z.enum(['env', 'api']).describe('env: from SMS_GATEWAY_WEBHOOK_URLS (not removable over the API); api: registered over the API'),
  disabled: z.boolean().describe('true after the target answered 410 Gone; `sms-gateway webhook test` switches it back on'),
  createdAt: z.string().describe('when the target was registered (env targets: when the gateway first started with it)'),
});

export type WebhookTarget = z.infer<typeof WebhookTargetSchema>;

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

interface Row {
  id: string;
  url: string;
  source: 'env' | 'api';
  disabledAt: number | null;
  createdAt: number | null;
}

const toTarget = (r: Row): WebhookTarget => ({
  id: r.id,
  url: r.url,
  source: r.source,
  disabled: r.disabledAt !== null,
  createdAt: new Date(r.createdAt ?? 0).toISOString(),
});

export function createTargetStore(db: Db, outbox: Pick<OutboxStore, 'removeTarget'>) {
  const listStmt = db.prepare(
    `SELECT id, url, source, disabled_at AS disabledAt, created_at AS createdAt FROM webhook_targets
     WHERE id IS NOT NULL ORDER BY created_at, id`,
  );
  const countApi = db.prepare(`SELECT COUNT(*) AS n FROM webhook_targets WHERE source = 'api'`);
  const insert = db.prepare(
    `INSERT INTO webhook_targets (url, id, source, created_at, api_registered) VALUES (@url, @id, 'api', @at, 1)`,
  );
  const markRegistered = db.prepare(`UPDATE webhook_targets SET api_registered = 1 WHERE id = @id`);
  const byId = db.prepare(`SELECT id, url, source FROM webhook_targets WHERE id = @id`);

  const list = () => (listStmt.all() as Row[]).map(toTarget);

  return {
    list,
    /** Targets registered over the API (they keep the inbox watcher running). */
    registeredCount: () => (countApi.get() as { n: number }).n,
    /**
     * Registers a URL (invalid_request when it cannot be one, too_many_webhooks beyond 20). A URL already registered
     * (either source) is not added twice: its target is returned with created=false.
     */
    add: db
      .transaction((url: string, at: number): { target: WebhookTarget; created: boolean } => {
        const problem = webhookUrlProblem(url);
        if (problem) throw new GatewayError('invalid_request', `Invalid request: body.${problem}`);
        const existing = list().find((t) => sameUrl(t.url, url));
        if (existing) {
          markRegistered.run({ id: existing.id }); // stays when it leaves SMS_GATEWAY_WEBHOOK_URLS
          return { target: existing, created: false };
        }
        if ((countApi.get() as { n: number }).n >= MAX_API_TARGETS) {
          throw new GatewayError(
            'too_many_webhooks',
            `At most ${MAX_API_TARGETS} webhook targets can be registered over the API; remove one first (DELETE /api/webhooks/{id}).`,
          );
        }
        const id = newId('wh', at);
        insert.run({ url, id, at });
        return { target: toTarget({ id, url, source: 'api', disabledAt: null, createdAt: at }), created: true };
      })
      .immediate as (url: string, at: number) => { target: WebhookTarget; created: boolean },
    /** Removes an API target with its pending events (not_found unknown, webhook_from_environment an env target). */
    remove: db
      .transaction((id: string): WebhookTarget['url'] => {
        const row = byId.get({ id }) as Pick<Row, 'id' | 'url' | 'source'> | undefined;
        if (!row) throw new GatewayError('not_found', `No webhook target ${id}.`);
        if (row.source === 'env') {
          throw new GatewayError(
            'webhook_from_environment',
            `Webhook target ${id} comes from SMS_GATEWAY_WEBHOOK_URLS: remove it there and restart the gateway.`,
          );
        }
        outbox.removeTarget(row.url);
        return row.url;
      })
      .immediate as (id: string) => string,
  };
}

export type TargetStore = ReturnType<typeof createTargetStore>;
