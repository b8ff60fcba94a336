// Local-network guard, the first guard (http/guards.ts): judges the TCP peer's address only
// (never X-Forwarded-For or similar headers) against the local ranges (core/addresses.ts),
// once per connection.
import { canonicalAddress, isLocalAddress } from '../core/addresses.js';
import type { FastifyRequest } from 'fastify';

export const FORBIDDEN_BODY = { error: 'Forbidden: local network access only' } as const;

/** The peer address of the TCP connection (not request.ip, which a proxy setting could change). */
export function peerAddress(request: FastifyRequest): string | undefined {
  return request.raw.socket?.remoteAddress;
}

// A connection's peer never changes: parse it once per connection, not on every hook.
const callers = new WeakMap<object, { address: string | undefined; local: boolean }>();

/** Is the peer local, and its canonical address; cached per connection when there is one. */
export function judgeCaller(
  socket: object | undefined,
  raw: string | undefined,
): { address: string | undefined; local: boolean } {
  if (!socket) return { address: canonicalAddress(raw), local: isLocalAddress(raw) };
  let c = callers.get(socket);
  if (!c) callers.set(socket, (c = { address: canonicalAddress(raw), local: isLocalAddress(raw) }));
  return c;
}

/** The caller's canonical address (IPv4-mapped unwrapped), for rate limiting, logs and history. */
export function callerAddress(request: FastifyRequest): string {
  return judgeCaller(request.raw.socket, peerAddress(request)).address ?? 'unknown';
}
