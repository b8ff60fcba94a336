// Bearer key check, the third guard (http/guards.ts). Every route but GET/HEAD /health
// and the console's page and files (GET/HEAD / and /console/*, http/routes/console.ts)
// needs exactly one `Authorization: Bearer <key>` header; anything else is 401. Node keeps
// only the first of duplicated Authorization headers, so the raw header list is counted.
import type { FastifyRequest } from 'fastify';
import { secretsEqual } from '../core/keys.js';
import { CONSOLE_FILES } from './routes/console.js';

export const UNAUTHORIZED_BODY = { error: 'Unauthorized' } as const;

/** Scheme word in any case, one space, one token with no whitespace. */
const BEARER = /^bearer ([^\s]+)$/i;

export function isPublicRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  return url === '/health' || (url !== undefined && Object.hasOwn(CONSOLE_FILES, url));
}

/** The token of the request's single Authorization header, or undefined if it has none usable. */
export function bearerToken(rawHeaders: string[]): string | undefined {
  let value: string | undefined;
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'authorization') {
      count++;
      value = rawHeaders[i + 1];
    }
  }
  if (count !== 1 || value === undefined) return undefined;
  return BEARER.exec(value)?.[1];
}

export function isAuthorized(rawHeaders: string[], currentKey: () => string): boolean {
  const token = bearerToken(rawHeaders);
  return token !== undefined && secretsEqual(token, currentKey());
}
