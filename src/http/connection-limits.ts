// What one LAN host (or a host outside it) can hold of the phone's sockets: at most
// MAX_CONNECTIONS_PER_CALLER open connections per address and MAX_CONNECTIONS in all (a
// connection past either is closed at once, before any parsing), idle keep-alive
// connections closed after KEEP_ALIVE_MS, and every guard refusal (401, 403, 429) closes
// its connection after the answer. Node's HTTP parser never answers a caller before the
// guard: Expect and a missing Host reach the hooks like any request, and no header is
// dropped before the duplicate-Authorization check.
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { canonicalAddress, isLocalAddress } from '../core/addresses.js';

export const MAX_CONNECTIONS_PER_CALLER = 32;
export const MAX_CONNECTIONS = 256;
export const KEEP_ALIVE_MS = 5_000;

/** Fastify's http options for the parser: no answer of its own before the hooks run. */
export const PARSER_OPTIONS = { requireHostHeader: false } as const;

export function limitConnections(app: FastifyInstance): void {
  const server = app.server as Server;
  server.maxConnections = MAX_CONNECTIONS;
  // Every header is kept (the 16 KB header limit still bounds them): a second
  // Authorization placed after 2000 others must not be dropped before it is seen.
  server.maxHeadersCount = 0;
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  const open = new Map<string, number>();
  server.prependListener('connection', (socket: Socket) => {
    const caller = canonicalAddress(socket.remoteAddress) ?? 'unknown';
    const count = (open.get(caller) ?? 0) + 1;
    if (count > MAX_CONNECTIONS_PER_CALLER) {
      socket.destroy();
      return;
    }
    open.set(caller, count);
    socket.once('close', () => {
      const left = (open.get(caller) ?? 1) - 1;
      if (left <= 0) open.delete(caller);
      else open.set(caller, left);
    });
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

  // A refused caller does not keep its connection.
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 401 || reply.statusCode === 403 || reply.statusCode === 429) reply.header('connection', 'close');
    return payload;
  });
}
