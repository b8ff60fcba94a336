// POST /api/messages (queue 1 to 100 recipients, 202 at once; optional Idempotency-Key)
// and DELETE /api/messages/:id (cancel a message whose hand-off has not started).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Enqueue } from '../../sms/enqueue.js';
import { idempotencyKey, IdempotencyKeyHeaderSchema } from '../idempotency-key.js';
import { callerAddress } from '../local-network.js';
import { MessageParamsSchema, MessageResponseSchema, QueuedResponseSchema, QueueRequestSchema } from '../schemas.js';
import { bearerErrors, json, STORAGE_503 } from '../route-docs.js';
import { queueAnswer } from '../send-answers.js';
import { cancelledExample, queueExample } from '../examples.js';
import { BODY_LIMIT } from '../errors.js';
import type { RouteFile } from '../route-parts.js';

export function queueRoutes(enqueue: Enqueue, bodyLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/messages',
      {
        bodyLimit,
        schema: {
          operationId: 'queueMessages',
          summary: 'Queue SMS (store-and-forward)',
          description:
            'Commits one queued record per recipient and answers 202 at once; the gateway hands them to the phone ' +
            'at the pace (1 s apart, at most 60 segments per minute shared with synchronous sends, ' +
            'SMS_GATEWAY_QUEUE_RATE for queued ones), after sendAt and outside quiet hours. A repeated ' +
            'Idempotency-Key returns the first answer and queues nothing.',
          tags: ['sms'],
          body: QueueRequestSchema,
          documentedHeaders: IdempotencyKeyHeaderSchema,
          response: {
            202: json(
              'Queued: one record per recipient, in the order given (or the first answer again for a known ' +
                'Idempotency-Key).',
              QueuedResponseSchema,
              queueExample,
            ),
            ...bearerErrors([400, 413, 415, 503], {
              400:
                'invalid_request (any invalid recipient, field or time refuses the whole request; nothing ' +
                'queued) or message_too_long.',
              503:
                'sms_disabled, storage_unavailable, or queue_full (10 000 messages already wait; Retry-After): ' +
                'nothing queued.',
            }),
          },
        },
      },
      async (request, reply) => {
        const outcome = await enqueue.accept(request.body, {
          origin: 'queue',
          sourceIp: callerAddress(request),
          idempotencyKey: idempotencyKey(request.raw.rawHeaders),
        });
        const { status, body } = queueAnswer(outcome);
        return reply.code(status).send(body as never);
      },
    );

    app.delete(
      '/api/messages/:id',
      {
        schema: {
          operationId: 'cancelMessage',
          summary: 'Cancel a queued message',
          description: 'A queued message whose hand-off has not started becomes cancelled and is never handed off.',
          tags: ['sms'],
          params: MessageParamsSchema,
          response: {
            200: json(
              'Cancelled: the record, status cancelled; it is never handed off.',
              MessageResponseSchema,
              cancelledExample,
            ),
            ...bearerErrors(
              [400, 404, 409, 503],
              {
                400: 'invalid_request: the id does not start with msg_.',
                503: STORAGE_503,
              },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request) => {
        return { success: true as const, data: enqueue.cancel(request.params.id) };
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending }) => queueRoutes(sending.enqueue, BODY_LIMIT);
