// One log line per request: method, route, status, duration, caller. Never headers, bodies
// or query strings (they could carry the key or a message). No hook at all when the level
// leaves it out (LOG_LEVEL=warn and above, or no logger). Callback style: no promise per
// request. The line's bytes are core/logging.ts's requestLineWriter.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { requestLineWriter } from '../core/logging.js';
import { callerAddress } from './local-network.js';

export function logRequestLines(app: FastifyInstance, logger: Logger | undefined): void {
  if (!logger?.isLevelEnabled('info')) return;
  const requestLine = requestLineWriter(logger);
  app.addHook('onResponse', (request, reply, done) => {
    requestLine({
      reqId: request.id,
      method: request.method,
      route: request.routeOptions.url ?? '(no route)',
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 10) / 10,
      caller: callerAddress(request),
    });
    done();
  });
}
