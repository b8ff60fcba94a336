// A request no route takes. One carrying a Basic credential is an SMSGate client's (the native API
// never takes Basic): it is answered in SMSGate's dialect, 401 with the Basic challenge for a wrong
// key, else 404 { message } naming the route (a token request, /health/ready, an attachment: what
// SMSGate serves and this gateway does not). Any other request gets the native 404 (the guards
// asked its bearer key first).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from '../core/errors.js';
import { nativeNotFound } from './errors.js';
import { hasBasicCredential, sendSmsgateUnauthorized, smsgateAuthorized } from './smsgate/credential.js';
import { sendSmsgateError } from './smsgate/answers.js';

/** Whether the guards leave an unrouted request's key to the not-found answer: it carries Basic. */
export function unroutedSmsgateRequest(request: FastifyRequest): boolean {
  return request.routeOptions.url === undefined && hasBasicCredential(request.raw.rawHeaders);
}

export function notFoundInDialect(apiKey: () => string) {
  return function notFound(request: FastifyRequest, reply: FastifyReply) {
    if (!hasBasicCredential(request.raw.rawHeaders)) return nativeNotFound(request, reply);
    if (!smsgateAuthorized(request.raw.rawHeaders, apiKey())) return sendSmsgateUnauthorized(reply);
    const path = request.url.split('?', 1)[0]!;
    return sendSmsgateError(reply, gatewayError('not_found', 'route', request.method, path));
  };
}
