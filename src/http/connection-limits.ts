// What one LAN host (or a host outside it) can hold of the phone's sockets: at most
// MAX_CONNECTIONS_PER_CALLER open connections per caller (an IPv4 address, or an IPv6 /64:
// one host may hold many addresses of its prefix), MAX_OUTSIDE_CONNECTIONS for all callers
// outside the local network together (they only ever get a 403), and MAX_CONNECTIONS in
// all; a connection past any of them is closed at once, before any parsing. Idle
// keep-alive connections close after KEEP_ALIVE_MS (the header and request timeouts are
// src/server/app.ts's), and every guard refusal (401, 403, 429) closes its connection
// after the answer. Node's HTTP parser never answers a caller before the
// guard: Expect and a missing Host reach the hooks like any request, and no header is
// dropped before the duplicate-Authorization check.
import type { Server, IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import ipaddr from 'ipaddr.js';
import { canonicalAddress, isLocalAddress } from '../core/addresses.js';

export const MAX_CONNECTIONS_PER_CALLER = 32;
export const MAX_OUTSIDE_CONNECTIONS = 16;
export const MAX_CONNECTIONS = 256;
export const KEEP_ALIVE_MS = 5_000;

/** Whose connections count together: an IPv4 address, or an IPv6 address's /64. */
export function callerKey(raw: string | undefined): string {
  const canonical = canonicalAddress(raw);
  if (canonical === undefined) return 'unknown';
  const addr = ipaddr.parse(canonical);
  if (addr.kind() === 'ipv4') return canonical;
  return `${(addr as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16)).join(':')}::/64`;
}

/**
 * Counts open connections per caller and outside the local network. `admit` answers with
 * the release to call when the connection closes, or undefined when it must be refused.
 */
export function createConnectionBudget(limits = { perCaller: MAX_CONNECTIONS_PER_CALLER, outside: MAX_OUTSIDE_CONNECTIONS }) {
  const open = new Map<string, number>();
  let outside = 0;
  return {
    admit(raw: string | undefined): (() => void) | undefined {
      const key = callerKey(raw);
      const local = isLocalAddress(raw);
      const count = (open.get(key) ?? 0) + 1;
      if (count > limits.perCaller || (!local && outside >= limits.outside)) return undefined;
      open.set(key, count);
      if (!local) outside++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        if (!local) outside--;
        const left = (open.get(key) ?? 1) - 1;
        if (left <= 0) open.delete(key);
        else open.set(key, left);
      };
    },
    /** Callers with an open connection (bounded by MAX_CONNECTIONS). */
    callers: () => open.size,
    outside: () => outside,
  };
}

/** Fastify's http options for the parser: no answer of its own before the hooks run. */
export const PARSER_OPTIONS = { requireHostHeader: false } as const;

export function limitConnections(app: FastifyInstance): void {
  const server = app.server as Server;
  server.maxConnections = MAX_CONNECTIONS;
  // Every header is kept (the 16 KB header limit still bounds them): a second
  // Authorization placed after 2000 others must not be dropped before it is seen.
  server.maxHeadersCount = 0;
  server.keepAliveTimeout = KEEP_ALIVE_MS;

  const budget = createConnectionBudget();
  server.prependListener('connection', (socket: Socket) => {
    const release = budget.admit(socket.remoteAddress);
    if (!release) {
      socket.destroy();
      return;
    }
    socket.once('close', release);
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
