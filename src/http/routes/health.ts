// GET /health: the liveness probe. No key needed, but behind the local-network guard
// and the per-caller rate limit like every route.
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MODES, RUNTIME_SIMULATIONS, type RuntimeInfo } from '../../core/runtime.js';
import { json, JSON_CONTENT_TYPE, PUBLIC_ERRORS } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    smsEnabled: z.boolean(),
    mode: z.enum(MODES),
    simulation: z.enum(RUNTIME_SIMULATIONS),
    testMode: z.boolean().describe('true in simulated mode'),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

export function healthOf(runtime: RuntimeInfo): Health {
  return {
    status: 'ok',
    version: runtime.version,
    smsEnabled: runtime.smsEnabled,
    mode: runtime.mode,
    simulation: runtime.simulation,
    testMode: runtime.mode === 'simulated',
  };
}

export function healthRoutes(runtime: RuntimeInfo): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness probe (no key needed)',
          tags: ['gateway'],
          security: [],
          response: {
            200: json('The gateway serves.', HealthSchema, {
              status: 'ok',
              version: '0.4.0',
              smsEnabled: true,
              mode: 'real',
              simulation: 'none',
              testMode: false,
            }),
            ...PUBLIC_ERRORS,
          },
        },
      },
      // Not async (no promise per request), and serialized by JSON.stringify: the gateway's
      // own answer, built typed by healthOf, needs no zod encoding (the contract tests check
      // it against the document like every answer).
      (_request, reply) => {
        reply.type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(healthOf(runtime));
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ runtime }) => healthRoutes(runtime);
