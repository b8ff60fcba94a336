// GET / and the console's files under /console/: the browser console built by
// scripts/build-console.mjs into dist/console/ (read when first asked for, then kept in
// memory with a gzip copy: a start neither reads nor compresses them, nor loads zlib).
// Behind the local-network guard and the rate limit, public like /health (the page holds no
// data: everything it shows comes from the API with the key the user pastes). Every answer
// carries the strict CSP of the contract. Not in the OpenAPI document (not JSON API routes).
// GET / with a Basic credential (SMSGate's clients) answers SMSGate's { status, model } instead
// (http/smsgate/basic-form.ts).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { gatewayError } from '../../core/errors.js';
import { sendError } from '../errors.js';
import type { RouteFile } from '../route-parts.js';
import { answeredBasicForm, type BasicFormParts } from '../smsgate/basic-form.js';

/** SMSGate's form of GET /: the key and the phone's model. */
export interface SmsgateRootForm extends BasicFormParts {
  model: () => string | null;
}

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** URL -> file in dist/console and its type. The only console URLs: no wildcard, no directory listing. */
export const CONSOLE_FILES: Readonly<Record<string, { file: string; type: string }>> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/console/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/console/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** dist/console of this package, from source (tests) and from the bundle (dist/chunks/) alike. */
export const CONSOLE_DIR = join(PACKAGE_ROOT, 'dist', 'console');

const NOT_BUILT =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>sms-gateway</title></head><body><p>The console ' +
  "is not built: run npm run build in the gateway's folder, then reload.</p></body></html>";

interface Loaded {
  body: Buffer;
  gzip: Buffer;
  type: string;
}

async function load(dir: string): Promise<Map<string, Loaded | undefined>> {
  const { gzipSync } = await import('node:zlib');
  const out = new Map<string, Loaded | undefined>();
  for (const [url, { file, type }] of Object.entries(CONSOLE_FILES)) {
    const path = join(dir, file);
    const body = existsSync(path) ? readFileSync(path) : url === '/' ? Buffer.from(NOT_BUILT) : undefined;
    out.set(url, body && { body, gzip: gzipSync(body), type });
  }
  return out;
}

function securityHeaders(reply: FastifyReply) {
  reply.header('content-security-policy', CONSOLE_CSP);
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-frame-options', 'DENY');
  reply.header('cache-control', 'no-cache');
}

export function consoleRoutes(dir = CONSOLE_DIR, smsgate?: SmsgateRootForm): FastifyPluginAsync {
  const root = smsgate && (() => ({ status: 200, body: { status: 'ok', model: smsgate.model() } }));
  return async (app) => {
    let files: Promise<Map<string, Loaded | undefined>> | undefined;
    for (const url of Object.keys(CONSOLE_FILES)) {
      app.get(url, { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
        if (url === '/' && smsgate && root && answeredBasicForm(request, reply, smsgate, root)) return reply;
        securityHeaders(reply);
        // A failed read is tried again on the next request, not kept.
        files ??= load(dir).catch((err: unknown) => {
          files = undefined;
          throw err;
        });
        const file = (await files).get(url);
        if (!file) return sendError(reply, gatewayError('not_found', 'consoleNotBuilt'));
        reply.type(file.type).header('vary', 'accept-encoding');
        if (/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? '')))
          return reply.header('content-encoding', 'gzip').send(file.gzip);
        return reply.send(file.body);
      });
    }
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ apiKey, status }) =>
  consoleRoutes(CONSOLE_DIR, { apiKey: () => apiKey.current(), model: () => status.smsgatePhone().model });
