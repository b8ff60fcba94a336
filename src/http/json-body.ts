// The one body parser: JSON only (a text/plain body is 415, not a string handed to a route)
// and strict UTF-8 (a body with invalid bytes is a 400, never text with U+FFFD sent as an SMS).
// A DELETE with the JSON type and no body has no body (HTTP clients written by hand send the
// same headers on every call; SMSGate's app, like most servers, deletes then).
import type { FastifyInstance } from 'fastify';
import { gatewayError } from '../core/errors.js';

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

export function strictJsonBodies(app: FastifyInstance): void {
  app.removeContentTypeParser('text/plain');
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    if (request.method === 'DELETE' && (body as Buffer).length === 0) return done(null, undefined);
    let text: string;
    try {
      text = STRICT_UTF8.decode(body as Buffer);
    } catch {
      done(gatewayError('invalid_request', 'bodyNotUtf8'), undefined);
      return;
    }
    void parseJson(request, text, done);
  });
}
