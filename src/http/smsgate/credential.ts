// The SMSGate routes' key check: exactly one Authorization header, `Basic base64(<any user>:<key>)` or
// `Bearer <key>`; anything else is 401 { message } with `WWW-Authenticate: Basic realm="sms-gateway"`.
// SMSGate's clients send Basic with a user name of their own (the key is the password); the native
// routes never take Basic (http/bearer-auth.ts).
import type { FastifyReply, FastifyRequest } from 'fastify';
import { secretsEqual } from '../../core/keys.js';
import { bearerToken, soleAuthorization } from '../authorization-header.js';
import type { RouteParts } from '../route-parts.js';

export const SMSGATE_CHALLENGE = 'Basic realm="sms-gateway"';
export const SMSGATE_UNAUTHORIZED = { message: 'Unauthorized: send Basic <any user>:<API key> or Bearer <API key>' };

/** Scheme word in any case, one space, the base64 token. */
const BASIC = /^basic ([A-Za-z0-9+/]+={0,2})$/i;

/** The password of a Basic credential (the user name is anything), or undefined when the header is not Basic. */
export function basicPassword(rawHeaders: string[]): string | undefined {
  const token = BASIC.exec(soleAuthorization(rawHeaders) ?? '')?.[1];
  if (token === undefined) return undefined;
  const decoded = Buffer.from(token, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon < 0 ? undefined : decoded.slice(colon + 1);
}

/** Whether the request carries a Basic credential at all (right or wrong): GET / and /health answer SMSGate's form. */
export function hasBasicCredential(rawHeaders: string[]): boolean {
  return /^basic\b/i.test(soleAuthorization(rawHeaders) ?? '');
}

/** Whether the request's credential (Basic with the key as password, or Bearer) is the current key. */
export function smsgateAuthorized(rawHeaders: string[], currentKey: string): boolean {
  const given = basicPassword(rawHeaders) ?? bearerToken(rawHeaders);
  return given !== undefined && secretsEqual(given, currentKey);
}

/** The group's 401: SMSGate's shape, the Basic challenge, and the connection closed like every refusal. */
export function sendSmsgateUnauthorized(reply: FastifyReply) {
  return reply
    .code(401)
    .header('www-authenticate', SMSGATE_CHALLENGE)
    .header('connection', 'close')
    .send(SMSGATE_UNAUTHORIZED);
}

/** The group's onRequest hook (after the local-network guard and the rate limit, http/route-group.ts). */
export function smsgateKeyCheck(parts: RouteParts) {
  return function smsgateKey(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    if (smsgateAuthorized(request.raw.rawHeaders, parts.apiKey.current())) return done();
    void sendSmsgateUnauthorized(reply);
  };
}
