// GET / and GET /health answer SMSGate's JSON to a request that carries a Basic credential (the
// key as password; a wrong one is SMSGate's 401 with the Basic challenge), and stay the
// console and the seed's health object for every other request. The routes that own those
// paths (http/routes/console.ts, health.ts) ask this first; a request without an
// Authorization header costs a look at its header names' lengths.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_CONTENT_TYPE } from '../route-docs.js';
import { hasBasicCredential, sendSmsgateUnauthorized, smsgateAuthorized } from './credential.js';

export interface BasicFormParts {
  /** The current API key. */
  apiKey: () => string;
}

/**
 * Whether the raw header list holds an Authorization header: a look at each name's length, and
 * no header object built (Node builds request.headers when first read; the guards read none).
 */
function namesAuthorization(raw: readonly string[]): boolean {
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization') return true;
  }
  return false;
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
  const raw = request.raw.rawHeaders;
  if (!namesAuthorization(raw) || !hasBasicCredential(raw)) return false;
  if (!smsgateAuthorized(request.raw.rawHeaders, parts.apiKey())) {
    void sendSmsgateUnauthorized(reply);
    return true;
  }
  const { status, body } = form();
  void reply.code(status).type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(body);
  return true;
}
