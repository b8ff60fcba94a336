// POST /api/sms/send: JSON body (at most 16 KB), optional Idempotency-Key header.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiError } from '../../core/api-error.js';
import type { SendService } from '../../sms/send.js';
import { callerAddress } from '../local-network.js';
import { COMMON_ERRORS, ErrorBodySchema, SendRequestSchema, SendResultSchema } from '../schemas.js';

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,128}$/;

/** The request's Idempotency-Key: undefined when absent; 400 when repeated or malformed. */
export function idempotencyKey(rawHeaders: string[]): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'idempotency-key') values.push(rawHeaders[i + 1]!);
  }
  if (values.length === 0) return undefined;
  if (values.length > 1 || !IDEMPOTENCY_KEY.test(values[0]!)) {
    throw new ApiError(400, 'invalid_request', 'Invalid request: Idempotency-Key must be one header of 1 to 128 printable ASCII characters.');
  }
  return values[0];
}

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
            503: ErrorBodySchema,
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
