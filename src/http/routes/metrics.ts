// GET /metrics: every series of status/metrics.ts in the Prometheus text exposition format,
// computed at the scrape. Behind the key like the rest of the API (Prometheus sends it with
// `authorization: credentials:`), and so behind the same guards: 403, 429, then 401.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { bearerErrors } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';

/** The text exposition format, version 0.0.4 (what Prometheus asks for and promtool reads). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const EXAMPLE = `# HELP sms_gateway_messages_sent_total Messages sent, all time.
# TYPE sms_gateway_messages_sent_total counter
sms_gateway_messages_sent_total 42
`;

export function metricsRoutes(scrape: () => Promise<string>): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/metrics',
      {
        schema: {
          operationId: 'getMetrics',
          summary: 'Prometheus metrics (text exposition format 0.0.4)',
          tags: ['gateway'],
          response: {
            200: {
              description:
                'Every series, computed now: messages, segments, the queue, webhook deliveries, the phone, hand-off ' +
                'durations.',
              content: { 'text/plain': { schema: z.string(), example: EXAMPLE } },
            },
            ...bearerErrors([]),
          },
        },
      },
      async (_request, reply) => reply.type(METRICS_CONTENT_TYPE).send(await scrape()),
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ status }) => metricsRoutes(() => status.metrics.scrape());
