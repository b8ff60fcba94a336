// POST /messages/inbox/export (and /inbox/export, /message/inbox/export): SMSGate's export
// { since, until, messageTypes?, triggerWebhooks? (default true), deviceId? } announces the stored
// received SMS of that range (received at since..until, both included; the newest 1000 are kept)
// again to the sms:received registrations, oldest first, each as a new event. 202 with {} (SMSGate
// sends no body; an empty object keeps clients that read JSON working). deviceId is not checked,
// as SMSGate's export does not.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { gatewayError } from '../../core/errors.js';
import { INBOX_KEPT } from '../../store/inbox.js';
import { json, STORAGE_503 } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';

const EXPORT_URLS = ['/messages/inbox/export', '/inbox/export', '/message/inbox/export'] as const;

const When = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time' });

const ExportSchema = z.object({
  since: When.describe('from this time (included)'),
  until: When.describe('to this time (included)'),
  messageTypes: z
    .array(z.enum(['SMS', 'MMS']))
    .min(1, 'messageTypes must not be empty')
    .optional()
    .describe('SMS by default; MMS never arrive here'),
  triggerWebhooks: z.boolean().optional().describe('default true; false announces nothing (everything is stored)'),
  deviceId: z.string().optional().describe('taken and not checked, as SMSGate does'),
});

function exportRoute({ webhooks, inbox }: RouteParts, url: (typeof EXPORT_URLS)[number]): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      url,
      {
        schema: {
          ...SMSGATE_ROUTE,
          hide: url !== '/messages/inbox/export',
          operationId: url === '/messages/inbox/export' ? 'smsgateExportInbox' : undefined,
          summary: 'Announce stored received SMS again to the sms:received registrations',
          description:
            'Each stored received SMS of the range (the newest 1000 are kept) goes again, oldest first, to every ' +
            'sms:received registration made over SMSGate’s routes, as a new event. Also at /inbox/export.',
          body: ExportSchema,
          response: {
            202: json(
              'Accepted: the events are stored and go out like every event.',
              z.object({}).strict().describe('an empty object'),
              {},
            ),
            ...smsgateErrors({
              400: 'since or until is missing or not a date-time, or since is after until.',
              413: 'The body is larger than the gateway takes.',
              415: 'The body is not JSON.',
              503: STORAGE_503,
            }),
          },
        },
      },
      async (request, reply) => {
        const b = request.body;
        const since = Date.parse(b.since);
        const until = Date.parse(b.until);
        if (since > until) throw gatewayError('invalid_request', 'problem', 'since must be before until');
        if ((b.triggerWebhooks ?? true) && (b.messageTypes ?? ['SMS']).includes('SMS')) {
          const { rows } = inbox.store.list({ limit: INBOX_KEPT, offset: 0, since, until: until + 1 });
          webhooks.smsgate.announceAgain(rows.reverse());
        }
        return reply.code(202).send({});
      },
    );
  };
}

export const routes: RouteFile =
  (parts): FastifyPluginAsyncZod =>
  async (app) => {
    for (const url of EXPORT_URLS) await app.register(exportRoute(parts, url));
  };
