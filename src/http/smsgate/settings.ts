// SMSGate's settings: GET /settings shows what maps (pacing, quiet hours, webhook retries, the
// signing key, the ping interval) in SMSGate's keys; PUT and PATCH are 405, they live in .env.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { GIVE_UP_AFTER_MS, retryDelayMs } from '../../events/delivery.js';
import { json } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';

export const SETTINGS_READ_ONLY =
  "Settings are read-only here: they live in the gateway's .env file (SMS_GATEWAY_*); edit it and restart the gateway.";

/** How many times an event is retried within its 24 hours at the nominal backoff (no jitter). */
export function retriesWithinLife(): number {
  let spent = 0;
  for (let n = 1; ; n++) {
    spent += retryDelayMs(n, () => 0.5);
    if (spent > GIVE_UP_AFTER_MS) return n - 1;
  }
}

const SettingsSchema = z
  .object({
    messages: z.object({
      limit_period: z.literal('PerMinute').describe('the queue keeps to a rolling 60 s'),
      limit_value: z
        .number()
        .int()
        .describe('SMS_GATEWAY_QUEUE_RATE: segments per rolling 60 s (SMSGate counts messages)'),
      send_interval_min: z.number().int().describe('seconds between hand-offs at least'),
      processing_order: z.literal('FIFO').describe('by priority, higher first, then oldest first'),
      quiet_hours: z
        .string()
        .nullable()
        .describe("this gateway's own key: SMS_GATEWAY_QUIET_HOURS (HH:MM-HH:MM, the phone's time), null when none"),
    }),
    ping: z.object({ interval_seconds: z.number().int().describe('SMS_GATEWAY_PING_MINUTES in seconds') }),
    webhooks: z.object({
      internet_required: z.literal(false).describe('webhooks on the local network go without the internet'),
      retry_count: z.number().int().describe('retries within an event’s 24 hours (backoff from 15 s to 1 h)'),
      signing_key: z.string().describe('the key of X-Signature: the gateway’s webhook secret, as its text'),
    }),
  })
  .meta({ id: 'SmsgateSettings' });

function settingsGet({ config, webhooks }: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/settings',
      {
        schema: {
          ...SMSGATE_ROUTE,
          operationId: 'smsgateGetSettings',
          summary: 'The settings that map to SMSGate’s',
          description:
            `What of SMSGate's settings this gateway has, in its keys. PUT and PATCH /settings answer 405: ` +
            `${SETTINGS_READ_ONLY}`,
          response: { 200: json('The settings.', SettingsSchema), ...smsgateErrors({}) },
        },
      },
      async () => ({
        messages: {
          limit_period: 'PerMinute' as const,
          limit_value: config.queueRate,
          send_interval_min: 1,
          processing_order: 'FIFO' as const,
          quiet_hours: config.quietHours?.text ?? null,
        },
        ping: { interval_seconds: (config.smsgatePingMinutes ?? 15) * 60 },
        webhooks: {
          internet_required: false as const,
          retry_count: retriesWithinLife(),
          signing_key: webhooks.signingKey(),
        },
      }),
    );
  };
}

function settingsWrites(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: '/settings',
        schema: {
          // Hidden: an operation with no success answer; GET /settings's description says it.
          hide: true,
          ...SMSGATE_ROUTE,
          operationId: method === 'PUT' ? 'smsgateReplaceSettings' : 'smsgateUpdateSettings',
          summary: `Settings cannot be changed through the API (405)`,
          response: smsgateErrors({ 405: SETTINGS_READ_ONLY }),
        },
        handler: (_request, reply) => {
          void reply.code(405).header('allow', 'GET').send({ message: SETTINGS_READ_ONLY });
        },
      });
    }
  };
}

export const routes: RouteFile =
  (parts): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(settingsGet(parts));
    await app.register(settingsWrites());
  };
