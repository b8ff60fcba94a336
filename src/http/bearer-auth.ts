// Bearer key check, the third guard (http/guards.ts). Every route but GET/HEAD /health
// and the console's page and files (GET/HEAD / and /console/*, http/routes/console.ts)
// needs exactly one `Authorization: Bearer <key>` header (http/authorization-header.ts);
// anything else is 401.
import type { FastifyRequest } from 'fastify';
import { secretsEqual } from '../core/keys.js';
import { CONSOLE_FILES } from './routes/console.js';
import { bearerToken } from './authorization-header.js';

export const UNAUTHORIZED_BODY = { error: 'Unauthorized' } as const;

export function isPublicRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return url === '/health' || (url !== undefined && Object.hasOwn(CONSOLE_FILES, url));
}

export function isAuthorized(rawHeaders: string[], currentKey: () => string): boolean {
  const token = bearerToken(rawHeaders);
  return token !== undefined && secretsEqual(token, currentKey());
}
