// SMSGate's webhook registrations: GET /webhooks (these registrations only; /api/webhooks lists its
// own), POST /webhooks { id?, deviceId?, url, event } (201; the same id replaces), DELETE
// /webhooks/:id (204, also for an id unknown, as SMSGate's app answers). /webhook is the same, hidden.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { gatewayError } from '../../core/errors.js';
import { SMSGATE_EVENTS, SMSGATE_EVENTS_SENT } from '../../events/smsgate-envelopes.js';
import { MAX_SMSGATE_WEBHOOKS } from '../../events/smsgate-webhooks.js';
import { json, noContent, STORAGE_503 } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';

const NEVER_SENT = SMSGATE_EVENTS.filter((e) => !SMSGATE_EVENTS_SENT.includes(e));

const EventSchema = z
  .enum(SMSGATE_EVENTS, { error: 'Unsupported event' })
  .describe(
    `Sent here: ${SMSGATE_EVENTS_SENT.join(', ')}. Accepted but never sent (no delivery report, data SMS or MMS ` +
      `through Termux:API; a cancelled message makes no event): ${NEVER_SENT.join(', ')}.`,
  );

const RegistrationSchema = z
  .object({
    id: z.string().describe('the registration id, the webhookId of its envelopes'),
    deviceId: z.null().describe('always null, as SMSGate lists its local registrations'),
    url: z.string(),
    event: EventSchema,
    source: z.literal('Local'),
  })
  .meta({ id: 'SmsgateWebhook' });

const RegisterSchema = z.object({
  id: z.string().trim().min(1).max(64).optional().describe('your id: the same id again replaces that registration'),
  deviceId: z.string().optional().describe("this phone's device id (GET /device), or nothing"),
  url: z.string().trim().describe('http:// or https://; http:// on the local network is allowed (SMSGate refuses it)'),
  event: EventSchema,
});

const example = {
  id: 'ha-received',
  deviceId: null,
  url: 'http://192.168.1.10:8123/api/webhook/sms',
  event: 'sms:received' as const,
  source: 'Local' as const,
};

function listRoute({ webhooks }: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/webhooks', '/webhook']) {
      app.get(
        url,
        {
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/webhook',
            operationId: url === '/webhooks' ? 'smsgateListWebhooks' : 'smsgateListWebhook',
            summary: "SMSGate's webhook registrations",
            description: 'The registrations made here, oldest first; the native targets are listed at /api/webhooks.',
            response: {
              200: json('Every registration.', z.array(RegistrationSchema), [example]),
              ...smsgateErrors({}),
            },
          },
        },
        async () => webhooks.smsgate.list(),
      );
    }
  };
}

function registerRoute({ webhooks, inbox, logger }: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/webhooks', '/webhook']) {
      app.post(
        url,
        {
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/webhook',
            operationId: url === '/webhooks' ? 'smsgateRegisterWebhook' : 'smsgateRegisterWebhookSingular',
            summary: 'Register a webhook in SMSGate’s dialect',
            description:
              'One event per registration; the same id again replaces it. Its events carry SMSGate’s envelope ' +
              '{ id, webhookId, event, deviceId, payload } with the same id on every retry, signed with X-Timestamp ' +
              'and X-Signature (hex HMAC-SHA256 of the raw body followed by the timestamp, keyed with ' +
              `GET /settings's webhooks.signing_key). At most ${MAX_SMSGATE_WEBHOOKS} registrations.`,
            body: RegisterSchema,
            response: {
              201: json('Registered (or replaced).', RegistrationSchema, example),
              ...smsgateErrors({
                400:
                  'The url is not http(s), holds credentials or spaces, the event is unknown, ' +
                  'or the deviceId is not this phone’s.',
                409: `${MAX_SMSGATE_WEBHOOKS} registrations exist already.`,
                413: 'The body is larger than the gateway takes.',
                415: 'The body is not JSON.',
                503: STORAGE_503,
              }),
            },
          },
        },
        async (request, reply) => {
          const { id, deviceId, url: target, event } = request.body;
          if (deviceId !== undefined && deviceId !== webhooks.smsgate.deviceId()) {
            throw gatewayError('invalid_request', 'problem', 'Device ID mismatch');
          }
          const registered = webhooks.smsgate.replace({ id, url: target, event });
          switchWatcher(inbox, logger);
          return reply.code(201).send(registered);
        },
      );
    }
  };
}

function removeRoute({ webhooks, inbox, logger }: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/webhooks/:id', '/webhook/:id']) {
      app.delete(
        url,
        {
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/webhook/:id',
            operationId: url === '/webhooks/:id' ? 'smsgateDeleteWebhook' : 'smsgateDeleteWebhookSingular',
            summary: 'Remove a registration',
            description: 'Its pending events are dropped. An unknown id is 204 too, as SMSGate answers.',
            params: z.object({ id: z.string().min(1).max(200) }),
            response: {
              204: noContent('Removed (or there was none); no body.'),
              ...smsgateErrors({ 503: STORAGE_503 }),
            },
          },
        },
        async (request, reply) => {
          webhooks.smsgate.remove(request.params.id);
          switchWatcher(inbox, logger);
          return reply.code(204).send(null);
        },
      );
    }
  };
}

/** The inbox watcher starts or stops in the background (an sms:received registration listens). */
function switchWatcher(inbox: RouteParts['inbox'], logger: RouteParts['logger']) {
  inbox.switchOver().catch((err: unknown) => logger?.error({ err }, 'could not switch the inbox watcher'));
}

export const routes: RouteFile =
  (parts): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(listRoute(parts));
    await app.register(registerRoute(parts));
    await app.register(removeRoute(parts));
  };
