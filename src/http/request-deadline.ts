// A request whose body has not fully arrived within REQUEST_TIMEOUT_MS of its headers is cut
// off: a caller trickling a body must not hold a connection (and a hand-off slot's request)
// open. Node's own requestTimeout is enforced only at its connection-checking interval (30 s
// by default, which the gateway keeps so that an idle phone is not woken every 2 s); this
// timer exists only while such a request is in flight, so idle costs nothing.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../core/clock.js';

export const REQUEST_TIMEOUT_MS = 15_000;

export function limitRequestTime(app: FastifyInstance, clock: Pick<Clock, 'setTimer'>, timeoutMs = REQUEST_TIMEOUT_MS): void {
  const server = app.server as Server;
  server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.complete) return;
    const timer = clock.setTimer(() => {
      if (!req.complete) req.socket.destroy();
    }, timeoutMs);
    const done = () => timer.cancel();
    req.once('end', done);
    res.once('close', done);
  });
}
