// The project's error envelope and the one root error handler. Every error that is not a
// guard's 401/403 leaves as { success: false, smsSent: false, error: { code, message } };
// 5xx answers never carry internals (the error is logged once, with the request). A
// database that cannot be written (full disk, read-only, deleted) is 503
// storage_unavailable on every route that writes, here in one place, never a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { gatewayError, GatewayError } from '../core/errors.js';
import { isStorageUnavailable } from '../store/database.js';
import { errorAnswer } from './error-status.js';

export { GatewayError } from '../core/errors.js';

/** The largest request body, in bytes (the routes that take one, and the 413's message). */
export const BODY_LIMIT = 16 * 1024;

/** Sends an error with its code's status (STATUS_OF) and, when it has one, Retry-After. */
export function sendError(reply: FastifyReply, err: GatewayError) {
  const { status, body, retryAfterSeconds } = errorAnswer(err);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  // A refused caller (429 here; 401 and 403 are the guards' own answers) does not keep its connection.
  if (status === 429) reply.header('connection', 'close');
  return reply.code(status).send(body);
}

/** Names the offending field(s) of a zod validation failure in one sentence (after "Invalid request: "). */
function describeValidation(err: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const parts = err.validation.slice(0, 3).map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const where = path ? `${err.validationContext ?? 'request'}.${path}` : (err.validationContext ?? 'request');
      return `${where}: ${issue.message}`;
    });
    return parts.join('; ');
  }
  return err.message;
}

/**
 * Maps Fastify's own errors (body parser, routing, validation) to our codes; `bodyLimit`: the route's (the 413 names
 * it).
 */
export function toGatewayError(err: FastifyError, bodyLimit = BODY_LIMIT): GatewayError | undefined {
  if (err instanceof GatewayError) return err;
  if (isStorageUnavailable(err)) return gatewayError('storage_unavailable', 'database', 'changed');
  if (err.validation) return gatewayError('invalid_request', 'problem', describeValidation(err));
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return gatewayError('payload_too_large', 'body', bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return gatewayError('unsupported_media_type', 'notJson');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return gatewayError('invalid_request', 'bodyNotJson');
  }
  const status = err.statusCode ?? 500;
  if (status === 404) return gatewayError('not_found', 'unknownRoute');
  if (status === 413) return gatewayError('payload_too_large', 'body', bodyLimit);
  if (status === 415) return gatewayError('unsupported_media_type', 'notJson');
  if (status >= 400 && status < 500) return gatewayError('invalid_request', 'unspecified');
  return undefined;
}

/** A request no route takes: the native 404 in the envelope. */
export function nativeNotFound(request: FastifyRequest, reply: FastifyReply) {
  return sendError(reply, gatewayError('not_found', 'route', request.method, request.url.split('?', 1)[0]!));
}

/** The root error handler and the not-found answer (the native one unless the app gives another). */
export function installErrorHandling(
  app: FastifyInstance,
  notFound: (request: FastifyRequest, reply: FastifyReply) => unknown = nativeNotFound,
) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toGatewayError(err, request.routeOptions.bodyLimit ?? BODY_LIMIT);
    if (known?.code === 'storage_unavailable' && !(err instanceof GatewayError)) {
      request.log.warn(
        { reqId: request.id, code: err.code, method: request.method, route: request.routeOptions.url },
        'database cannot be written',
      );
    }
    if (known) return sendError(reply, known);
    request.log.error(
      { reqId: request.id, err, method: request.method, route: request.routeOptions.url },
      'request failed',
    );
    return sendError(reply, gatewayError('internal_error', 'logged'));
  });
  app.setNotFoundHandler(notFound);
}
