// GET /inbox: the stored received SMS in SMSGate's shape (type, limit 1..500, offset, from, to,
// deviceId), newest first, with X-Total-Count; POST /inbox/refresh: the inbox watcher reads the
// phone's inbox now (202; what it finds is stored and announced as any received SMS). Both are
// 503 while the inbox watcher is off, as GET /api/inbox is. The gateway receives SMS only:
// another type lists nothing, and attachments are always empty.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gatewayError } from '../../core/errors.js';
import type { InboxRecord, InboxStore } from '../../store/inbox.js';
import { queryInt } from '../query-schemas.js';
import { json, noContent } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';
import { smsgateDeviceId } from './device-id.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { SmsgateInboxMessageSchema } from './system-schemas.js';

export interface SmsgateInboxDeps {
  store: Pick<InboxStore, 'list'>;
  enabled: () => boolean;
  /** Reads the phone's inbox now (joins a read in flight). */
  pollOnce: () => Promise<void>;
  /** This phone's device id (made once, kept: http/smsgate/device-id.ts). */
  deviceId: () => string;
  /** This phone's number (SMS_GATEWAY_PHONE_NUMBER), each SMS's recipient. */
  phoneNumber: string | null;
}

const TYPES = ['SMS', 'DATA_SMS', 'MMS', 'MMS_DOWNLOADED'] as const;
const time = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with Z or an offset' });

const InboxQuery = z
  .object({
    type: z.enum(TYPES, { error: 'Invalid type' }).optional().describe('Only SMS is ever listed here'),
    includeAttachments: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
    limit: queryInt(1, 500, 50).describe('1 to 500, default 50'),
    offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0).describe('0 or more, default 0'),
    from: time.optional().describe('Received at or after this time'),
    to: time.optional().describe('Received at or before this time'),
    deviceId: z.string().max(64).optional().describe("This phone's id (GET /devices); another is 400"),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), {
    path: ['from'],
    error: 'Start date cannot be after end date',
  });

const RefreshBody = z
  .object({
    since: time,
    until: time,
    messageTypes: z
      .array(z.enum(['SMS', 'MMS']))
      .min(1, 'messageTypes must not be empty')
      .optional(),
    triggerWebhooks: z.boolean().optional(),
  })
  .refine((b) => Date.parse(b.since) <= Date.parse(b.until), { path: ['since'], error: 'since must be before until' });

/** The wall-clock ms an id was made at (its first 10 characters after the prefix, Crockford base32). */
function idTime(id: string): number {
  const digits = id.slice(id.indexOf('_') + 1, id.indexOf('_') + 11);
  return [...digits].reduce((t, c) => t * 32 + Math.max(0, '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c)), 0);
}

function smsgateInboxMessage(r: InboxRecord, recipient: string | null) {
  return {
    id: r.id,
    type: 'SMS' as const,
    sender: r.from ?? '',
    recipient,
    simNumber: r.simSlot,
    contentPreview: r.body,
    // An SMS whose time the phone reported unreadable: when the gateway stored it.
    createdAt: r.receivedAt ?? new Date(idTime(r.id)).toISOString(),
    attachments: [],
  };
}

const EXAMPLE = [
  {
    id: 'in_01jd8k2m3n4p5q6r7s8t9v0w1x',
    type: 'SMS' as const,
    sender: '+491719876543',
    recipient: '+491511234567',
    simNumber: null,
    contentPreview: 'On my way, 10 minutes.',
    createdAt: '2026-11-21T12:00:00.000Z',
    attachments: [],
  },
];

const INBOX_OFF = 'the inbox watcher is off (no webhook target, SMS_GATEWAY_INBOX not true); the message says how';

function inboxRoutes(deps: SmsgateInboxDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/inbox',
      {
        schema: {
          ...SMSGATE_ROUTE,
          operationId: 'smsgateListInbox',
          summary: 'Received SMS, newest first, with X-Total-Count',
          querystring: InboxQuery,
          response: {
            200: json('A page of received SMS.', z.array(SmsgateInboxMessageSchema), EXAMPLE, {
              'X-Total-Count': { type: 'integer', minimum: 0, description: 'How many match the filter' },
            }),
            ...smsgateErrors({ 400: 'A bad query parameter, or another device id.', 503: INBOX_OFF }),
          },
        },
      },
      async (request, reply) => {
        if (!deps.enabled()) throw gatewayError('inbox_disabled', 'notRead');
        const q = request.query;
        if (q.deviceId !== undefined && q.deviceId !== deps.deviceId())
          throw gatewayError('invalid_request', 'problem', "deviceId is not this phone's id (GET /devices)");
        if (q.type !== undefined && q.type !== 'SMS') return reply.header('x-total-count', '0').send([]);
        const since = q.from === undefined ? undefined : Date.parse(q.from);
        const until = q.to === undefined ? undefined : Date.parse(q.to) + 1;
        const { rows, total } = deps.store.list({ limit: q.limit, offset: q.offset, since, until });
        void reply.header('x-total-count', String(total));
        return rows.map((r) => smsgateInboxMessage(r, deps.phoneNumber));
      },
    );
    app.post(
      '/inbox/refresh',
      {
        schema: {
          ...SMSGATE_ROUTE,
          operationId: 'smsgateRefreshInbox',
          summary: "Reads the phone's inbox now",
          description:
            'since and until are checked as SMSGate checks them; the inbox watcher then reads what is new since its ' +
            'last read (it never reads an SMS twice), and each new SMS is stored and announced to the webhooks.',
          body: RefreshBody,
          response: {
            202: noContent('The read has begun; no body.'),
            ...smsgateErrors({ 400: 'A bad body (since, until, messageTypes).', 503: INBOX_OFF }),
          },
        },
      },
      async (_request, reply) => {
        if (!deps.enabled()) throw gatewayError('inbox_disabled', 'notRead');
        void deps.pollOnce();
        // No body at all, as SMSGate answers (a null would be serialized as the text "null").
        return reply.code(202).send(undefined as unknown as null);
      },
    );
  };
}

export const routes: RouteFile = (parts) =>
  inboxRoutes({
    store: parts.inbox.store,
    enabled: parts.inbox.enabled,
    pollOnce: () => parts.inbox.watcher.pollOnce(),
    deviceId: () => smsgateDeviceId(parts),
    phoneNumber: parts.config.phoneNumber ?? null,
  });
