// PUT and PATCH /settings: 405, the gateway's settings live in its .env file.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteFile } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';

export const SETTINGS_READ_ONLY =
  "Settings are read-only here: they live in the gateway's .env file (SMS_GATEWAY_*); edit it and restart the gateway.";

function settingsRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    for (const method of ['PUT', 'PATCH'] as const) {
      app.route({
        method,
        url: '/settings',
        schema: {
          // Hidden: an operation with no success answer; GET /settings's description says it.
          hide: true,
          ...SMSGATE_ROUTE,
          operationId: method === 'PUT' ? 'smsgateReplaceSettings' : 'smsgateUpdateSettings',
          summary: `Settings cannot be changed through the API (405)`,
          response: smsgateErrors({ 405: SETTINGS_READ_ONLY }),
        },
        handler: (_request, reply) => {
          void reply.code(405).header('allow', 'GET').send({ message: SETTINGS_READ_ONLY });
        },
      });
    }
  };
}

export const routes: RouteFile = () => settingsRoutes();
