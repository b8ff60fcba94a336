// GET /api/inbox: received SMS, newest first, paginated, optionally from one sender and
// searched (q: a number or a text; since and until: the time received).
// 503 inbox_disabled while the inbox watcher is off (nobody listens: no webhook target,
// no SMS_GATEWAY_INBOX=true), saying how to switch it on.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gatewayError } from '../../core/errors.js';
import type { InboxStore } from '../../store/inbox.js';
import { InboxPageSchema, InboxQuerySchema } from '../integration-schemas.js';
import { searchTimes } from '../query-schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { inboxExample } from '../integration-examples.js';
import type { RouteFile } from '../route-parts.js';

export interface InboxRoutesDeps {
  store: InboxStore;
  /** Whether the inbox watcher runs. */
  enabled: () => boolean;
}

export function inboxRoutes(deps: InboxRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/inbox',
      {
        schema: {
          operationId: 'listInbox',
          summary: 'Received SMS, newest first',
          description:
            'The newest 1000 SMS the inbox watcher saw arrive (it runs when a webhook target is configured or ' +
            'SMS_GATEWAY_INBOX=true; it never lists what arrived before it first ran). Searched with q (a number or ' +
            'a text), since and until (the time received, which excludes an SMS whose time the phone reported ' +
            'unreadable); the total and hasNext count the filtered messages.',
          tags: ['inbox'],
          querystring: InboxQuerySchema,
          response: {
            200: json('A page of received SMS, newest first.', InboxPageSchema, inboxExample),
            ...bearerErrors(
              [400, 503],
              {
                400:
                  'invalid_request: a bad or unknown query parameter (limit, offset, from, q, since, until; ' +
                  'until before since); the message names it.',
                503: 'inbox_disabled: the inbox watcher is off; the message says how to switch it on.',
              },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request) => {
        if (!deps.enabled()) throw gatewayError('inbox_disabled', 'notRead');
        const { limit, offset, from, q } = request.query;
        const { rows, total } = deps.store.list({ limit, offset, from, q, ...searchTimes(request.query) });
        return {
          success: true as const,
          data: rows,
          pagination: { limit, offset, total, hasNext: offset + rows.length < total },
        };
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ inbox }) => inboxRoutes(inbox);
