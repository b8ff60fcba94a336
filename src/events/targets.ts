// Webhook targets as the API shows and changes them: those of SMS_GATEWAY_WEBHOOK_URLS
// (source "env": listed, not removable) and those registered over the API (source "api":
// at most 20, kept in the database across restarts). A new target gets the events made
// from its registration on: the outbox gives an event to the targets enabled when it is made.
import * as z from 'zod';
import { gatewayError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { webhookUrlProblem } from '../core/webhook-url.js';
import type { OutboxStore } from '../store/outbox.js';
import type { TargetRow, WebhookTargetsTable } from '../store/webhook-targets.js';

export const MAX_API_TARGETS = 20;

export const WebhookTargetSchema = z.object({
  id: z.string().describe('wh_...'),
  url: z.string().describe('shown only to callers with the API key; logs and diagnostics show scheme, host and port'),
  source: z
    .enum(['env', 'api'])
    .describe('env: from SMS_GATEWAY_WEBHOOK_URLS (not removable over the API); api: registered over the API'),
  disabled: z
    .boolean()
    .describe('true after the target answered 410 Gone; `sms-gateway webhook test` switches it back on'),
  createdAt: z
    .string()
    .describe('when the target was registered (env targets: when the gateway first started with it)'),
});

export type WebhookTarget = z.infer<typeof WebhookTargetSchema>;

const sameUrl = (a: string, b: string) => {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
};

const toTarget = (r: TargetRow): WebhookTarget => ({
  id: r.id,
  url: r.url,
  source: r.source,
  disabled: r.disabledAt !== null,
  createdAt: new Date(r.createdAt ?? 0).toISOString(),
});

export function createTargetStore(table: WebhookTargetsTable, outbox: Pick<OutboxStore, 'removeTarget'>) {
  const list = () => table.list().map(toTarget);

  return {
    list,
    /** Targets registered over the API (they keep the inbox watcher running). */
    registeredCount: table.registeredCount,
    /**
     * Registers a URL (invalid_request when it cannot be one, too_many_webhooks beyond 20). A URL already registered
     * (either source) is not added twice: its target is returned with created=false.
     */
    add: (url: string, at: number): { target: WebhookTarget; created: boolean } =>
      table.exclusive(() => {
        const problem = webhookUrlProblem(url);
        if (problem) throw gatewayError('invalid_request', 'problem', `body.${problem}`);
        const existing = list().find((t) => sameUrl(t.url, url));
        if (existing) {
          table.markRegistered(existing.id); // stays when it leaves SMS_GATEWAY_WEBHOOK_URLS
          return { target: existing, created: false };
        }
        if (table.registeredCount() >= MAX_API_TARGETS) {
          throw gatewayError('too_many_webhooks', 'atMost', MAX_API_TARGETS);
        }
        const id = newId('wh', at);
        table.insertApi(url, id, at);
        return { target: toTarget({ id, url, source: 'api', disabledAt: null, createdAt: at }), created: true };
      }),
    /** Removes an API target with its pending events (404 unknown, 409 an env target). */
    remove: (id: string): WebhookTarget['url'] =>
      table.exclusive(() => {
        const row = table.byId(id);
        if (!row) throw gatewayError('not_found', 'webhookTarget', id);
        if (row.source === 'env') {
          throw gatewayError('webhook_from_environment', 'fromEnv', id);
        }
        outbox.removeTarget(row.url);
        return row.url;
      }),
  };
}

export type TargetStore = ReturnType<typeof createTargetStore>;
