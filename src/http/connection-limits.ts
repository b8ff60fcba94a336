// What one LAN host (or a host outside it) can hold of the phone's sockets, and how room is
// made when a ceiling is reached (docs/design.md, "A fair share under a hostile LAN"): at most
// MAX_CONNECTIONS_PER_ADDRESS connections per address (IPv4 or IPv6),
// MAX_CONNECTIONS_PER_PREFIX per IPv6 /64 of the local network (one host may hold many
// addresses of its prefix), MAX_OUTSIDE_CONNECTIONS for all callers outside the local network
// together (they only ever get a 403) and MAX_CONNECTIONS in all. A newcomer past a ceiling
// is never refused while room can be made: a connection of the caller holding the most is
// closed (src/http/connection-table.ts). A connection without a complete request's headers
// after HEADERS_TIMEOUT_MS is closed; idle keep-alive connections close after KEEP_ALIVE_MS
// (Node's own timer per socket), and every guard refusal (401, 403, 429) closes its
// connection after the answer. The whole may hold MAX_CONNECTIONS_GRACE more for
// CONNECTIONS_GRACE_MS, so the newcomers of one large accept batch have their requests read
// before room is made among them. Node's HTTP parser never answers a caller before the guard:
// Expect and a missing Host reach the hooks like any request, and no header is dropped
// before the duplicate-Authorization check.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { canonicalAddress, isLocalAddress } from '../core/addresses.js';
import type { Clock } from '../core/clock.js';
import { ANSWER_STARTED } from './answer-started.js';
import { createConnectionTable, type CallerPlace, type Entry, type TableLimits } from './connection-table.js';

export const MAX_CONNECTIONS_PER_ADDRESS = 32;
export const MAX_CONNECTIONS_PER_PREFIX = 128;
export const MAX_OUTSIDE_CONNECTIONS = 16;
export const MAX_CONNECTIONS = 256;
/**
 * Past MAX_CONNECTIONS, for at most CONNECTIONS_GRACE_MS: a newcomer's headers are read only
 * after every connection waiting to be accepted has been (a flood keeps hundreds waiting
 * while the event loop is busy elsewhere). Without it, an honest newcomer accepted early in
 * such a batch is closed by the 256th after it before its request is read: the likely cause
 * of test/e2e/flood.test.ts's witness losing a request in the 1 000-address shape on a loaded
 * machine (ECONNRESET, rare). 256 more sockets cost a few MB, within the flood's memory bound.
 */
export const MAX_CONNECTIONS_GRACE = 256;
export const CONNECTIONS_GRACE_MS = 500;
export const KEEP_ALIVE_MS = 5_000;
export const HEADERS_TIMEOUT_MS = 10_000;
/** The table's ceilings and deadlines, from the constants above: the one set the gateway uses. */
export const CONNECTION_LIMITS: TableLimits = {
  total: MAX_CONNECTIONS,
  perAddress: MAX_CONNECTIONS_PER_ADDRESS,
  perPrefix: MAX_CONNECTIONS_PER_PREFIX,
  outside: MAX_OUTSIDE_CONNECTIONS,
  headersMs: HEADERS_TIMEOUT_MS,
  grace: MAX_CONNECTIONS_GRACE,
  graceMs: CONNECTIONS_GRACE_MS,
};
/**
 * The kernel's queue of connections not yet accepted (capped by net.core.somaxconn). A flood
 * that fills it makes the kernel drop everyone's SYNs, a newcomer's too (retried after 1 s):
 * Node's 511 is less than what 1 000 reconnecting addresses keep waiting.
 */
export const LISTEN_BACKLOG = 4096;

/** Where a peer's connections count: its address, its /64 (IPv6 on the LAN), outside or not. */
export function callerPlace(raw: string | undefined): CallerPlace {
  const address = canonicalAddress(raw);
  if (address === undefined) return { address: 'unknown', outside: true };
  if (!isLocalAddress(address)) return { address, outside: true };
  const addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv4') return { address, outside: false };
  const prefix = `${(addr as ipaddr.IPv6).parts
    .slice(0, 4)
    .map((p) => p.toString(16))
    .join(':')}::/64`;
  return { address, prefix, outside: false };
}

/** Fastify's http options for the parser: no answer of its own before the hooks run. */
export const PARSER_OPTIONS = { requireHostHeader: false } as const;

/** The table on the gateway's clock (its timers never keep the process alive: core/clock.ts). */
export function limitConnections(app: FastifyInstance, clock: Clock): void {
  const server = app.server;
  // No Node ceiling (it would refuse the newcomer): the table below keeps the count.
  // Every header is kept (the 16 KB header limit still bounds them): a second
  // Authorization placed after 2000 others must not be dropped before it is seen.
  server.maxHeadersCount = 0;
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  const table = createConnectionTable(CONNECTION_LIMITS, clock);
  const entries = new WeakMap<Socket, Entry>();
  server.prependListener('connection', (socket: Socket) => {
    const entry = table.admit(socket, callerPlace(socket.remoteAddress));
    if (!entry) return; // refused: every connection under its ceiling has a request in flight
    entries.set(socket, entry);
    socket.once('close', () => table.closed(entry));
  });
  // Handed to the app (not merely read: it may wait its turn, http/answer-started.ts): the
  // connection is busy until its answer is written or abandoned.
  server.prependListener(ANSWER_STARTED, (req: IncomingMessage, res: ServerResponse) => {
    const entry = entries.get(req.socket);
    if (!entry) return;
    table.requestStarted(entry);
    res.once('close', () => table.requestEnded(entry));
  });

  // Expect: 100-continue and other expectations go to the hooks (the guard answers a
  // non-local caller 403); only a local caller gets Node's 100 Continue, or its 417.
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

  // A refused caller does not keep its connection. (Callback style: no promise per request.)
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (reply.statusCode === 401 || reply.statusCode === 403 || reply.statusCode === 429) reply.header('connection', 'close');
    done(null, payload);
  });
}
