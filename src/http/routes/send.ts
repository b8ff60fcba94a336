// POST /api/sms/send: JSON body (at most 16 KB), optional Idempotency-Key header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SendService } from '../../sms/send.js';
import { idempotencyKey } from '../idempotency-key.js';
import { callerAddress } from '../local-network.js';
import { COMMON_ERRORS, ErrorBodySchema, SendRequestSchema, SendResultSchema } from '../schemas.js';

export function sendRoutes(service: SendService, bodyLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/sms/send',
      {
        bodyLimit,
        schema: {
          summary: 'Send an SMS',
          description:
            'Commits the message as queued, hands it to the phone, and answers 200 (handed off) or 502 (failed). A repeated Idempotency-Key returns the first answer without a second hand-off.',
          tags: ['sms'],
          body: SendRequestSchema,
          response: {
            200: SendResultSchema,
            ...COMMON_ERRORS,
            413: ErrorBodySchema,
            415: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema.describe('sms_disabled, storage_unavailable, or sender_busy (no hand-off slot in time: nothing recorded)'),
          },
        },
      },
      async (request, reply) => {
        const key = idempotencyKey(request.raw.rawHeaders);
        const outcome = await service.send(request.body, {
          sourceIp: callerAddress(request),
          idempotencyKey: key,
        });
        return reply.code(outcome.statusCode as 200).send(outcome.body as never);
      },
    );
  };
}
