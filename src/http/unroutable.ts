// Answers for a URL the router cannot take (Fastify's frameworkErrors: a path that cannot
// be decoded, a path segment longer than any id the gateway makes). Such a request skips
// every hook, so the guards are asked here first; then a too-long id with the msg_ (wh_)
// prefix is simply unknown (404), anything else is 400 invalid_request.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { gatewayError } from '../core/errors.js';
import { sendError } from './errors.js';
import { guardUnroutable, sendRefusal, type Guards } from './guards.js';

/** Fastify's frameworkErrors option for these guards. */
export function answerUnroutable(guards: Guards) {
  const answer = (err: { code?: string }, request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    const refusal = guardUnroutable(guards, request);
    if (refusal) return sendRefusal(reply, refusal);
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      if (request.url.startsWith('/api/webhooks/wh_'))
        return sendError(reply, gatewayError('not_found', 'webhookTarget'));
      return request.url.startsWith('/api/messages/msg_')
        ? sendError(reply, gatewayError('not_found', 'message'))
        : sendError(reply, gatewayError('invalid_request', 'pathSegmentTooLong'));
    }
    return sendError(reply, gatewayError('invalid_request', 'badUrl'));
  };
  // The reply is sent by then; Fastify expects nothing back from this option.
  return (err: { code?: string }, request: FastifyRequest, reply: FastifyReply): void => {
    void answer(err, request, reply);
  };
}
