// A group of routes with its own key check and its own error shape, registered as one line of
// the routes table (http/routes/index.ts): the SMSGate-compatible routes (Basic or Bearer, errors
// as { message }) are such a group, under http/smsgate/. The root's guard hook (http/guards.ts)
// runs first for a group's routes too: local network 403, then the per-caller rate limit 429;
// it leaves the key to the group, whose own onRequest hook runs right after it (Fastify runs an
// app's hooks before those of a plugin registered in it), so the order stays local network,
// rate limit, key. The group's error handler answers its routes' errors only, and the rate
// limit's 429 on them (a GatewayError rate_limited with its retryAfterSeconds).
import type { FastifyError, FastifyPluginAsync, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import type { RouteFile, RouteParts } from './route-parts.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on a route group's routes: the group checks the key itself, after the guards. */
    ownKeyCheck?: boolean;
  }
}

export interface RouteGroup {
  /** The group's key check, an onRequest hook: it answers a caller it refuses (which ends the request). */
  keyCheck: (parts: RouteParts) => onRequestHookHandler;
  /** The group's answer to its routes' errors (validation, a refusal thrown, a failure, the guards' 429). */
  errorHandler?: (parts: RouteParts) => (err: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;
  /** The group's route files, each exporting a RouteFile like the table's, in registration order. */
  routes: readonly RouteFile[];
}

/** The group as one RouteFile for the routes table. */
export function routeGroup(group: RouteGroup): RouteFile {
  return (parts): FastifyPluginAsync =>
    async (app) => {
      // onRoute in this plugin sees only the routes registered in it (Fastify encapsulates it).
      app.addHook('onRoute', (route) => {
        route.config = { ...route.config, ownKeyCheck: true };
      });
      app.addHook('onRequest', group.keyCheck(parts));
      if (group.errorHandler) app.setErrorHandler(group.errorHandler(parts));
      for (const routes of group.routes) await app.register(routes(parts));
    };
}

/** Whether a route group checks this request's key itself (the guards then ask only 403 and 429). */
export function checksOwnKey(request: FastifyRequest): boolean {
  return request.routeOptions.config?.ownKeyCheck === true;
}
