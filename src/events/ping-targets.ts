// The test event (POST /api/webhooks/test, `sms-gateway webhook test`): one signed
// gateway.test event posted at once to every target of the running gateway (not through
// the outbox: no retries), each answer reported. A target switched off by a 410 that
// answers 2xx here is switched back on.
import type { Logger } from 'pino';
import * as z from 'zod';
import type { Clock } from '../core/clock.js';
import { redactUrl } from '../core/webhook-url.js';
import { postSigned } from './post-signed.js';
import { nativeBody } from './native-wire.js';
import { makeEvent } from '../store/event-record.js';
import type { OutboxStore } from '../store/outbox.js';
import type { TargetStore } from './targets.js';

export const WebhookTestResultSchema = z.object({
  id: z.string(),
  url: z.string(),
  source: z.enum(['env', 'api']),
  delivered: z.boolean().describe('the target answered 2xx'),
  status: z.number().int().nullable().describe('the HTTP status it answered; null when there was no answer'),
  error: z
    .string()
    .nullable()
    .describe('why it was not delivered (e.g. HTTP 500, cannot connect, no answer within 10 s)'),
  switchedBackOn: z.boolean().describe('the target had been switched off by a 410 and is on again'),
});

export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

export interface WebhookTesterOptions {
  targets: TargetStore;
  outbox: OutboxStore;
  clock: Clock;
  secret: () => string;
  userAgent: string;
  version: string;
  post?: typeof postSigned;
  timeoutMs?: number;
  logger?: Logger | undefined;
}

export function createWebhookTester(opts: WebhookTesterOptions) {
  const post = opts.post ?? postSigned;
  return {
    /** Posts the test event to every target in parallel; resolves when each answered or timed out. */
    async run(): Promise<WebhookTestResult[]> {
      const now = opts.clock.now();
      const event = makeEvent(
        'gateway.test',
        { message: 'This is a test event from sms-gateway.', version: opts.version },
        now,
      );
      const body = nativeBody(event);
      return Promise.all(
        opts.targets.list().map(async (t) => {
          const r = await post(t.url, event.id, body, opts.secret(), now, opts.userAgent, opts.timeoutMs);
          const switchedBackOn = r.ok && t.disabled;
          if (switchedBackOn) opts.outbox.enable(t.url);
          opts.logger?.info(
            { target: redactUrl(t.url), delivered: r.ok, status: r.status, switchedBackOn },
            'webhook test event',
          );
          return {
            id: t.id,
            url: t.url,
            source: t.source,
            delivered: r.ok,
            status: r.status,
            error: r.error,
            switchedBackOn,
          };
        }),
      );
    },
  };
}

export type WebhookTester = ReturnType<typeof createWebhookTester>;
