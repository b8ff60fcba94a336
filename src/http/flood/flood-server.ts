// The gateway's Node HTTP server with the flood defence, made through Fastify's own
// `serverFactory` option: the connection table on 'connection' (connection-table.ts, with
// limits.ts's ceilings) and the answer gate (answer-gate.ts) between the server and Fastify's
// handler. Node's own knobs do what they can: keepAliveTimeout closes idle keep-alive
// connections, headersTimeout and requestTimeout back up the table's headers sweep and the
// gate's body deadline (Node checks those two only every 30 s, its default, so that an idle
// phone is not woken: the gateway's own timers exist only while such a connection or request
// does), maxHeadersCount 0 keeps every header (the 16 KB header limit still bounds them: a
// second Authorization after 2000 others must not be dropped before it is seen), and Node's
// parser answers nobody before the guard (no Host required; Expect goes to the hooks).
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { isLocalAddress } from '../../core/addresses.js';
import { requireBuiltin } from '../../core/builtin.js';
import type { Clock } from '../../core/clock.js';
import { createAnswerGate, type Line, type SlowReaderReason } from './answer-gate.js';
import { createConnectionTable } from './connection-table.js';
import { callerPlace, CONNECTION_LIMITS, HEADERS_TIMEOUT_MS, KEEP_ALIVE_MS, REQUEST_TIMEOUT_MS } from './limits.js';

export type { SlowReaderReason } from './answer-gate.js';

export interface FloodDeps {
  clock: Clock;
  /** A connection closed for not reading its answers (the /metrics counter). */
  onClosed?: ((reason: SlowReaderReason) => void) | undefined;
  logger?: Logger | undefined;
}

/** Expect: 100-continue and other expectations go to the hooks (the guard answers a non-local caller 403). */
function passExpectations(server: Server): void {
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    if (isLocalAddress(req.socket.remoteAddress)) res.writeContinue();
    server.emit('request', req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    if (!isLocalAddress(req.socket.remoteAddress)) {
      server.emit('request', req, res);
      return;
    }
    res.writeHead(417, { connection: 'close' });
    res.end();
  });
}

/** Fastify's serverFactory for the gateway: the Node server with the table and the gate on the injected clock. */
export function floodServer(deps: FloodDeps) {
  return (fastifyHandler: RequestListener): Server => {
    const table = createConnectionTable(CONNECTION_LIMITS, deps.clock);
    const lines = new WeakMap<Socket, Line>();
    const gate = createAnswerGate({
      ...deps,
      onStart: (line) => line.entry && table.requestStarted(line.entry),
      onEnd: (line) => line.entry && table.requestEnded(line.entry),
    });
    const handler = gate.handler(fastifyHandler, (socket) => lines.get(socket));
    // By require(): an ES-module import of node:http reads its lazy exports and loads undici (core/builtin.ts).
    const { createServer } = requireBuiltin<typeof import('node:http')>('node:http');
    const timeouts = { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS };
    const server = createServer({ requireHostHeader: false, ...timeouts }, handler);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.maxHeadersCount = 0;
    // No Node ceiling (server.maxConnections refuses the newcomer): the table keeps the count.
    server.prependListener('connection', (socket: Socket) => {
      const place = callerPlace(socket.remoteAddress);
      const entry = table.admit(socket, place);
      if (!entry) return; // refused: every connection under its ceiling has a request in flight
      const line = gate.open(socket, place.address);
      line.entry = entry;
      lines.set(socket, line);
      socket.once('close', () => table.closed(entry));
    });
    passExpectations(server);
    return server;
  };
}
