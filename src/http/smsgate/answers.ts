// The SMSGate routes' errors: SMSGate's shape { "message": "..." } with the status our code has
// (400, 404, 409, 413, 415, 429 and 503 with Retry-After where the native answer has it). A failure
// that is not a refusal is logged once and answered 500 without internals, like the native routes.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError, type GatewayError } from '../../core/errors.js';
import { errorAnswer } from '../error-status.js';
import { BODY_LIMIT, toGatewayError } from '../errors.js';

/** SMSGate's error body. */
export interface SmsgateError {
  message: string;
}

/** Sends a refusal in SMSGate's shape with its code's status and Retry-After. */
export function sendSmsgateError(reply: FastifyReply, err: GatewayError) {
  const { status, retryAfterSeconds } = errorAnswer(err);
  if (retryAfterSeconds !== undefined) reply.header('retry-after', String(retryAfterSeconds));
  if (status === 429) reply.header('connection', 'close');
  return reply.code(status).send({ message: err.message } satisfies SmsgateError);
}

/** The group's error handler (http/route-group.ts). */
export function smsgateErrorHandler() {
  return (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const known = toGatewayError(err, request.routeOptions.bodyLimit ?? BODY_LIMIT);
    if (known) return sendSmsgateError(reply, known);
    request.log.error(
      { reqId: request.id, err, method: request.method, route: request.routeOptions.url },
      'request failed',
    );
    return sendSmsgateError(reply, gatewayError('internal_error', 'logged'));
  };
}
