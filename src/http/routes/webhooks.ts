// Webhook targets over the API: GET /api/webhooks (all, both sources), POST /api/webhooks
// (register; 201, or 200 with the existing target for a URL already registered),
// DELETE /api/webhooks/:id (204; 409 for SMS_GATEWAY_WEBHOOK_URLS targets) and
// POST /api/webhooks/test (the test event to every target now, each answer reported).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import * as z from 'zod';
import type { Clock } from '../../core/clock.js';
import { redactUrl } from '../../core/webhook-url.js';
import type { TargetStore } from '../../events/targets.js';
import type { WebhookTester } from '../../events/ping-targets.js';
import {
  WebhookListSchema,
  WebhookParamsSchema,
  WebhookRequestSchema,
  WebhookResponseSchema,
  WebhookTestResponseSchema,
} from '../integration-schemas.js';
import { bearerErrors, json, noContent, STORAGE_503 } from '../route-docs.js';
import { webhookExample, webhookListExample, webhookTestExample } from '../integration-examples.js';
import { BODY_LIMIT } from '../errors.js';
import type { RouteFile } from '../route-parts.js';

export interface WebhookRoutesDeps {
  targets: TargetStore;
  tester: WebhookTester;
  clock: Clock;
  logger?: Logger | undefined;
  /** After a target was added or removed (the inbox watcher may start or stop). */
  changed: () => Promise<void>;
}

export function webhookRoutes(deps: WebhookRoutesDeps, bodyLimit: number): FastifyPluginAsyncZod {
  /** The inbox watcher starts or stops in the background: the answer never waits for a poll. */
  const switchWatcher = () => {
    deps.changed().catch((err: unknown) => deps.logger?.error({ err }, 'could not switch the inbox watcher'));
  };
  return async (app) => {
    app.get(
      '/api/webhooks',
      {
        schema: {
          operationId: 'listWebhooks',
          summary: 'Webhook targets',
          description:
            'Targets of SMS_GATEWAY_WEBHOOK_URLS (source env) and those registered over the API (source api), ' +
            'oldest first.',
          tags: ['webhooks'],
          response: {
            200: json('Every target, oldest first.', WebhookListSchema, webhookListExample),
            ...bearerErrors([]),
          },
        },
      },
      async () => ({ success: true as const, data: deps.targets.list() }),
    );

    app.post(
      '/api/webhooks',
      {
        bodyLimit,
        schema: {
          operationId: 'addWebhook',
          summary: 'Register a webhook target',
          description:
            'The target receives every event made from now on (none from before), signed like all events, and is ' +
            'kept across restarts. A URL already registered is not added twice: 200 with its target. At most 20 ' +
            'targets can be registered over the API.',
          tags: ['webhooks'],
          body: WebhookRequestSchema,
          response: {
            200: json('The URL was already a target: that target.', WebhookResponseSchema, webhookExample),
            201: json('Registered: it receives every event from now on.', WebhookResponseSchema, webhookExample),
            ...bearerErrors(
              [400, 409, 413, 415, 503],
              {
                400:
                  'invalid_request: the url is missing, not http(s), holds credentials or spaces, or is longer ' +
                  'than 2048 characters.',
                409: 'too_many_webhooks: 20 targets are registered over the API already.',
                503: STORAGE_503,
              },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request, reply) => {
        const { target, created } = deps.targets.add(request.body.url.trim(), deps.clock.now());
        if (created) {
          deps.logger?.info({ id: target.id, target: redactUrl(target.url) }, 'webhook target registered');
          switchWatcher();
        }
        return reply.code(created ? 201 : 200).send({ success: true as const, data: target });
      },
    );

    await app.register(webhookRemoveRoute(deps, switchWatcher));
    await app.register(webhookTestRoute(deps));
  };
}

/** DELETE /api/webhooks/:id: a target registered over the API, with its pending events. */
function webhookRemoveRoute(
  deps: Pick<WebhookRoutesDeps, 'targets' | 'logger'>,
  switchWatcher: () => void,
): FastifyPluginAsyncZod {
  return async (app) => {
    app.delete(
      '/api/webhooks/:id',
      {
        schema: {
          operationId: 'removeWebhook',
          summary: 'Remove a webhook target registered over the API',
          description:
            'Its pending events are dropped. Targets of SMS_GATEWAY_WEBHOOK_URLS cannot be removed here (409).',
          tags: ['webhooks'],
          params: WebhookParamsSchema,
          response: {
            204: noContent('Removed; no body.'),
            ...bearerErrors(
              [400, 404, 409, 503],
              {
                400: 'invalid_request: the id does not start with wh_.',
                404: 'not_found: no webhook target has this id.',
                409:
                  'webhook_from_environment: the target comes from SMS_GATEWAY_WEBHOOK_URLS; remove it there and ' +
                  'restart.',
                503: STORAGE_503,
              },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        const url = deps.targets.remove(id);
        deps.logger?.info({ id, target: redactUrl(url) }, 'webhook target removed');
        switchWatcher();
        return reply.code(204).send(null);
      },
    );
  };
}

/** POST /api/webhooks/test: the test event to every target, each answer reported. */
function webhookTestRoute(deps: Pick<WebhookRoutesDeps, 'tester'>): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/webhooks/test',
      {
        schema: {
          operationId: 'testWebhooks',
          summary: 'Send the test event to every target',
          description:
            'Posts one signed gateway.test event to every target at once (no retries) and answers when each ' +
            'answered or timed out (10 s). A target switched off by a 410 that answers 2xx is switched back on.',
          tags: ['webhooks'],
          // no body arrives as null
          body: z.object({}).strict().nullish().describe('Nothing, or an empty JSON object {}.'),
          'x-optional-body': true,
          response: {
            200: json('One result per target.', WebhookTestResponseSchema, webhookTestExample),
            ...bearerErrors([]),
          },
        },
      },
      async () => ({ success: true as const, data: await deps.tester.run() }),
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ webhooks, inbox, clock, logger }) => {
  const changed = () => inbox.switchOver();
  return webhookRoutes({ targets: webhooks.targets, tester: webhooks.tester, clock, logger, changed }, BODY_LIMIT);
};
