// POST /messages (and /message): SMSGate's send. The message goes through the durable queue like
// POST /api/messages; 202 with its message state and Location: /messages/<id>; a reused id is 409.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BODY_LIMIT } from '../errors.js';
import { callerAddress } from '../local-network.js';
import { json } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { smsgateDeviceId } from './device-id.js';
import { SmsgateMessageStateSchema, SmsgateSendQuerySchema, SmsgateSendSchema } from './message-schemas.js';
import { renderMessageState } from './message-state.js';
import { toQueueRequest, withSmsgateNames } from './send-request.js';
import { SMSGATE_MESSAGE_EXAMPLE } from './message-example.js';

const LOCATION = {
  Location: { type: 'string', description: 'Where to follow its state: /messages/<id>' },
} as const;

export const idTaken = (id: string) =>
  `A message with id ${id} already exists: an id is used once (leave id out and the gateway makes one).`;

function sendRoutes(parts: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/messages', '/message']) {
      app.post(
        url,
        {
          bodyLimit: BODY_LIMIT,
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/message',
            operationId: url === '/messages' ? 'smsgateSendMessage' : 'smsgateSendMessageSingular',
            summary: 'Send an SMS (SMSGate)',
            description:
              "SMSGate's send: one record per recipient in the durable queue, as POST /api/messages queues them " +
              '(validation, pacing, quiet hours, the opt-out list). Also at POST /message. No delivery report ' +
              'is ever produced (Termux:API gives none).',
            querystring: SmsgateSendQuerySchema,
            body: SmsgateSendSchema,
            response: {
              202: json('Queued: its message state.', SmsgateMessageStateSchema, SMSGATE_MESSAGE_EXAMPLE, LOCATION),
              ...smsgateErrors({
                400: 'A field is invalid, a data or encrypted message, ttl with validUntil; nothing queued.',
                409: 'The id is already used by another message; nothing queued.',
                413: 'The body is larger than 16 KB.',
                415: 'The body is not JSON.',
                503: 'SMS is switched off, the database cannot be written, or the queue is full; nothing queued.',
              }),
            },
          },
        },
        async (request, reply) => {
          const deviceId = smsgateDeviceId(parts);
          const service = parts.sending.smsgate.messages;
          let result;
          try {
            const req = toQueueRequest(request.body, parts.clock.now(), deviceId);
            result = await service.send(req, request.body.id ?? undefined, callerAddress(request));
          } catch (err) {
            throw withSmsgateNames(err);
          }
          if (result.kind === 'taken') return reply.code(409).send({ message: idTaken(result.id) });
          return reply
            .code(202)
            .header('location', `/messages/${encodeURIComponent(result.id)}`)
            .send(renderMessageState(result, deviceId, true));
        },
      );
    }
  };
}

export const routes: RouteFile = (parts) => sendRoutes(parts);
