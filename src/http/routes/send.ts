// POST /api/sms/send: JSON body (at most 16 KB), optional Idempotency-Key header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SendService } from '../../sms/send.js';
import { idempotencyKey, IdempotencyKeyHeaderSchema } from '../idempotency-key.js';
import { callerAddress } from '../local-network.js';
import { SendRequestSchema, SendResultSchema } from '../schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { sendAnswer } from '../send-answers.js';
import { sendExample } from '../examples.js';
import { BODY_LIMIT } from '../errors.js';
import type { RouteFile } from '../route-parts.js';

export function sendRoutes(service: SendService, bodyLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/sms/send',
      {
        bodyLimit,
        schema: {
          operationId: 'sendSms',
          summary: 'Send an SMS',
          description:
            'Commits the message as queued, hands it to the phone, and answers 200 (handed off) or 502 (failed). A ' +
            'repeated Idempotency-Key returns the first answer without a second hand-off.',
          tags: ['sms'],
          body: SendRequestSchema,
          documentedHeaders: IdempotencyKeyHeaderSchema,
          response: {
            200: json(
              'Handed to the phone (or, in simulated mode, to the simulated sender); the record is queued until it ' +
                'settles.',
              SendResultSchema,
              sendExample,
            ),
            ...bearerErrors([400, 409, 413, 415, 502, 503], {
              400:
                'invalid_request (a bad field, an Idempotency-Key reused with a different request) or ' +
                'message_too_long (more than 60 segments).',
              409:
                'recipient_opted_out: the number is on the opt-out list (GET /api/opt-outs); nothing recorded or ' +
                'sent.',
              429:
                'rate_limited (more than about 10 requests per second from this address) or send_rate_limited ' +
                '(the 60-segment minute or the 1-second spacing); wait Retry-After seconds.',
              503:
                'sms_disabled, storage_unavailable, or sender_busy (no hand-off slot within 5 s; Retry-After): ' +
                'nothing recorded or sent.',
            }),
          },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request.raw.rawHeaders);
        const outcome = await service.send(request.body, {
          origin: 'api',
          sourceIp: callerAddress(request),
          idempotencyKey: key,
        });
        const { status, body } = sendAnswer(outcome);
        return reply.code(status).send(body as never);
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending }) => sendRoutes(sending.sendService, BODY_LIMIT);
