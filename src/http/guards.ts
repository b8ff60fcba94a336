// The guard order, written once: local network (403) -> per-caller rate limit (429) ->
// bearer key (401). The order is the security: a caller outside the local network is never
// counted nor told anything about keys, and failed key guesses are counted. The onRequest
// hook (server/app.ts), Fastify's frameworkErrors path (a URL the router cannot decode) and
// Node's parser errors (http/parser-errors.ts) all ask here; none writes the order again.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../core/clock.js';
import { judgeCaller, FORBIDDEN_BODY } from './local-network.js';
import { BUCKET_CAPACITY, createTokenBucketStore, rateLimitedError, type BucketResult } from './rate-limit.js';
import { isAuthorized, isPublicRoute, UNAUTHORIZED_BODY } from './bearer-auth.js';
import { checksOwnKey } from './route-group.js';
import { unroutedSmsgateRequest } from './not-found.js';
import { sendError } from './errors.js';
import { errorBody } from '../core/errors.js';

/** Why a request is turned away, first match in the guard order. */
export type Refusal = { status: 403 } | { status: 429; waitMs: number } | { status: 401 };

/** What the guards judge of a request: its connection's peer, its raw headers, its route. */
export interface CallerFacts {
  /** The TCP peer's address as the socket reports it (never a forwarding header). */
  peer: string | undefined;
  /** The connection, to judge its peer once per connection. */
  socket?: object | undefined;
  /** The raw header list (duplicated Authorization headers are all there). */
  rawHeaders: string[];
  /** No key check by the guards: GET/HEAD /health, the console's files, a route group's routes (their own check). */
  publicRoute: boolean;
}

export interface Guards {
  /** The three guards in order; `counted` sees the caller's bucket once it was counted. */
  check(caller: CallerFacts, counted?: (bucket: BucketResult) => void): Refusal | undefined;
}

export function createGuards(clock: Clock, apiKey: () => string): Guards {
  const buckets = createTokenBucketStore(clock);
  return {
    check(caller, counted) {
      const judged = judgeCaller(caller.socket, caller.peer);
      if (!judged.local) return { status: 403 };
      const bucket = buckets.take(judged.address ?? 'unknown');
      counted?.(bucket);
      if (!bucket.allowed) return { status: 429, waitMs: bucket.waitMs };
      if (!caller.publicRoute && !isAuthorized(caller.rawHeaders, apiKey)) return { status: 401 };
      return undefined;
    },
  };
}

/**
 * A request Node's HTTP parser could not read: it has no headers to check a key in and is
 * not counted against its caller (it never reaches a route), so only the first guard applies.
 */
export function unreadableRequestRefusal(peer: string | undefined): Refusal | undefined {
  return judgeCaller(undefined, peer).local ? undefined : { status: 403 };
}

/** The refusal's status and body: the guards' own bodies for 403/401, the envelope for 429. */
export function refusalAnswer(refusal: Refusal): { status: number; body: object } {
  if (refusal.status === 403) return { status: 403, body: FORBIDDEN_BODY };
  if (refusal.status === 401) return { status: 401, body: UNAUTHORIZED_BODY };
  return { status: 429, body: errorBody(rateLimitedError(refusal.waitMs)) };
}

/** A refusal also closes its connection: a refused caller does not keep it. */
export function sendRefusal(reply: FastifyReply, refusal: Refusal) {
  reply.header('connection', 'close');
  if (refusal.status === 429) return sendError(reply, rateLimitedError(refusal.waitMs));
  const { status, body } = refusalAnswer(refusal);
  return reply.code(status).send(body);
}

/** The shared onRequest hook: the guards, with the rate-limit headers every counted answer carries. */
export function guardHook(guards: Guards) {
  // Callback style, not async: no promise per request (answering, it does not call done).
  return function guard(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    const refusal = guards.check(
      {
        peer: request.raw.socket?.remoteAddress,
        socket: request.raw.socket,
        rawHeaders: request.raw.rawHeaders,
        // No bearer key asked here on a public route, nor on a route group's (http/route-group.ts asks it),
        // nor for an unrouted SMSGate request (http/not-found.ts checks its Basic credential).
        publicRoute: isPublicRoute(request) || checksOwnKey(request) || unroutedSmsgateRequest(request),
      },
      (bucket) => {
        reply.header('x-ratelimit-limit', BUCKET_CAPACITY);
        reply.header('x-ratelimit-remaining', bucket.allowed ? Math.floor(bucket.tokens) : 0);
        reply.header('x-ratelimit-reset', Math.ceil(bucket.resetMs / 1000));
      },
    );
    if (!refusal) return done();
    // A route group's 429 takes the group's shape: its error handler answers it (http/route-group.ts).
    if (refusal.status === 429 && checksOwnKey(request)) return void reply.send(rateLimitedError(refusal.waitMs));
    sendRefusal(reply, refusal);
  };
}

/** The guards for a request that skipped the hooks (frameworkErrors): no route, so no public one. */
export function guardUnroutable(guards: Guards, request: { raw: FastifyRequest['raw'] }): Refusal | undefined {
  return guards.check({
    peer: request.raw.socket?.remoteAddress,
    socket: request.raw.socket,
    rawHeaders: request.raw.rawHeaders,
    publicRoute: false,
  });
}
