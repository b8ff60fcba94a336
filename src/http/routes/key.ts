// POST /api/key/rotate: replaces the API key with a fresh one and answers it, once (the
// only answer that carries a key). The old key stops working on the next request. A key
// file that cannot be written is 503 storage_unavailable, and the old key stays.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { gatewayError } from '../../core/errors.js';
import { bearerErrors, json } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';

export const KeyRotatedSchema = z.object({
  success: z.literal(true),
  data: z.object({
    apiKey: z.string().describe('the new key (sk_local_ and 32 letters or digits); the old one no longer works'),
  }),
});

export interface KeyRoutesDeps {
  /** Writes a fresh key and returns it (throws when the key file cannot be written). */
  rotate: () => string;
  logger?: Logger | undefined;
}

export function keyRoutes(deps: KeyRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/key/rotate',
      {
        schema: {
          operationId: 'rotateApiKey',
          summary: 'Replace the API key',
          description:
            'Writes a new API key and answers it once; every request after this one needs the new key (the old one ' +
            'is refused with 401). The same as `sms-gateway key rotate`. No body.',
          tags: ['gateway'],
          response: {
            200: json('The new key.', KeyRotatedSchema, {
              success: true,
              data: { apiKey: 'sk_local_3xAmPLeKeY0nLyN0tReAl0000000000' },
            }),
            ...bearerErrors(
              [503],
              { 503: 'storage_unavailable: the key file cannot be written; the old key still works.' },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async () => {
        let apiKey: string;
        try {
          apiKey = deps.rotate();
        } catch (err) {
          deps.logger?.error(
            { code: (err as NodeJS.ErrnoException).code },
            'API key not rotated: the key file cannot be written',
          );
          throw gatewayError('storage_unavailable', 'keyFile');
        }
        deps.logger?.info('API key rotated over the API');
        return { success: true as const, data: { apiKey } };
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ apiKey, logger }) => keyRoutes({ rotate: () => apiKey.rotate(), logger });
