// buildApp(deps): the Fastify instance with its hooks and routes. It never listens
// (the start command does). The three guards are shared onRequest hooks added here,
// explicitly and in this order, because the order is the security:
//   local-network guard (403) -> per-caller rate limit (429) -> bearer key (401)
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { RuntimeInfo } from './runtime.js';
import { localNetworkGuard, canonicalAddress } from './http/local-network.js';
import { registerRateLimit } from './http/rate-limit.js';
import { createBearerAuth } from './http/bearer-auth.js';
import { installErrorHandling } from './http/errors.js';
import { healthRoutes } from './http/routes/health.js';
import { openapiRoutes } from './http/routes/openapi.js';

export const BODY_LIMIT = 16 * 1024;

export interface AppDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  /** The current API key (re-read after a rotation). */
  apiKey: () => string;
  logger?: Logger;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger | undefined,
    // Fastify's own two lines per request are off; the onResponse hook below writes one.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
    // Slow or stalled clients must not hold the phone's sockets for long.
    requestTimeout: 15_000,
    http: { headersTimeout: 10_000 },
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // JSON only: a text/plain body is 415, not a string handed to a route.
  app.removeContentTypeParser('text/plain');
  installErrorHandling(app);

  app.addHook('onRequest', localNetworkGuard);
  await registerRateLimit(app, deps.clock);
  app.addHook('onRequest', createBearerAuth(deps.apiKey));

  // One log line per request: method, route, status, duration, caller. Never headers,
  // bodies or query strings (they could carry the key or a message).
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? '(no route)',
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        caller: canonicalAddress(request.raw.socket?.remoteAddress) ?? 'unknown',
      },
      'request',
    );
  });

  await app.register(swagger, {
    openapi: {
      info: {
        title: 'sms-gateway',
        version: deps.runtime.version,
        description: 'Send SMS through an Android phone on the local network.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });

  await app.register(healthRoutes(deps.runtime));
  await app.register(openapiRoutes);
  return app;
}
