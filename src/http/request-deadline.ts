// A request whose body has not fully arrived within REQUEST_TIMEOUT_MS of its headers is cut
// off: a caller trickling a body must not hold a connection (and a hand-off slot's request)
// open. Node's own requestTimeout is enforced only at its connection-checking interval (30 s
// by default, which the gateway keeps so that an idle phone is not woken every 2 s); this
// timer exists only while such a request is in flight, so idle costs nothing, and only for a
// request with a body to wait for (a Content-Length above 0 or a Transfer-Encoding): one
// without has nothing left to send once its headers are in.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';

export const REQUEST_TIMEOUT_MS = 15_000;

export function limitRequestTime(app: FastifyInstance, clock: Pick<Clock, 'setTimer'>, timeoutMs = REQUEST_TIMEOUT_MS): void {
  const server = app.server;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete || !hasBody(req)) return;
    const timer = clock.setTimer(() => {
      if (!req.complete) req.socket.destroy();
    }, timeoutMs);
    const done = () => timer.cancel();
    req.once('end', done);
    res.once('close', done);
  });
}

/** True when the request's framing announces a body (RFC 9112 6.3): a Transfer-Encoding, or a Content-Length above 0. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
