// GET / and GET /health answer SMSGate's JSON to a request that carries a Basic credential (the
// key as password; a wrong one is SMSGate's 401 with the Basic challenge), and stay the
// console and the seed's health object for every other request. The routes that own those
// paths (http/routes/console.ts, health.ts) ask this first; a request without an
// Authorization header costs one property read.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from '../route-docs.js';
import { hasBasicCredential, sendSmsgateUnauthorized, smsgateAuthorized } from './credential.js';

export interface BasicFormParts {
  /** The current API key. */
  apiKey: () => string;
}

/**
 * Answers SMSGate's form when the request carries a Basic credential and returns true; false
 * (nothing sent) for any other request, which the route then answers as before.
 */
export function answeredBasicForm(
  request: FastifyRequest,
  reply: FastifyReply,
  parts: BasicFormParts,
  form: () => { status: number; body: unknown },
): boolean {
  if (request.headers.authorization === undefined || !hasBasicCredential(request.raw.rawHeaders)) return false;
  if (!smsgateAuthorized(request.raw.rawHeaders, parts.apiKey())) {
    void sendSmsgateUnauthorized(reply);
    return true;
  }
  const { status, body } = form();
  void reply.code(status).type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(body);
  return true;
}
