// The project's error envelope and the one root error handler. Every error that is not a
// guard's 401/403 leaves as { success: false, smsSent: false, error: { code, message } };
// 5xx answers never carry internals (the error is logged once, with the request). A
// database that cannot be written (full disk, read-only, deleted) is 503
// storage_unavailable on every route that writes, here in one place, never a 500.
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { GatewayError } from '../core/errors.js';
import { storageMessage } from '../sms/reasons.js';
import { isStorageUnavailable } from '../store/database.js';
import { errorAnswer } from './error-status.js';

export { GatewayError } from '../core/errors.js';

/** Sends an error with its code's status (STATUS_OF) and, when it has one, Retry-After. */
export function sendError(reply: FastifyReply, err: GatewayError) {
  const { status, body, retryAfterSeconds } = errorAnswer(err);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  return reply.code(status).send(body);
}

/** Names the offending field(s) of a zod validation failure in one sentence. */
function describeValidation(err: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const parts = err.validation.slice(0, 3).map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      const where = path ? `${err.validationContext ?? 'request'}.${path}` : (err.validationContext ?? 'request');
      return `${where}: ${issue.message}`;
    });
    return `Invalid request: ${parts.join('; ')}`;
  }
  return `Invalid request: ${err.message}`;
}

/** Maps Fastify's own errors (body parser, routing, validation) to our codes. */
export function toGatewayError(err: FastifyError): GatewayError | undefined {
  if (err instanceof GatewayError) return err;
  if (isStorageUnavailable(err)) return new GatewayError('storage_unavailable', storageMessage('changed'));
  if (err.validation) return new GatewayError('invalid_request', describeValidation(err));
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new GatewayError('payload_too_large', 'Request body is larger than 16 KB.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new GatewayError('invalid_request', 'Request body is not valid JSON.');
  }
  const status = err.statusCode ?? 500;
  if (status === 404) return new GatewayError('not_found', 'No such route.');
  if (status === 413) return new GatewayError('payload_too_large', 'Request body is larger than 16 KB.');
  if (status === 415) return new GatewayError('unsupported_media_type', 'Send the body as JSON with Content-Type: application/json.');
  if (status >= 400 && status < 500) return new GatewayError('invalid_request', 'Invalid request.');
  return undefined;
}

export function installErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toGatewayError(err);
    if (known?.code === 'storage_unavailable' && !(err instanceof GatewayError)) {
      request.log.warn({ reqId: request.id, code: err.code, method: request.method, route: request.routeOptions.url }, 'database cannot be written');
    }
    if (known) return sendError(reply, known);
    request.log.error({ reqId: request.id, err, method: request.method, route: request.routeOptions.url }, 'request failed');
    return sendError(reply, new GatewayError('internal_error', 'Internal error; the gateway logged the details.'));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new GatewayError('not_found', `No route ${request.method} ${request.url.split('?', 1)[0]}.`)),
  );
}
