// Local-network guard: the first onRequest hook. Judges the TCP peer's address only
// (never X-Forwarded-For or similar headers) against the ranges of the decisions page.
import ipaddr from 'ipaddr.js';
import type { FastifyReply, FastifyRequest } from 'fastify';

const ALLOWED_V4 = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10', // carrier-grade NAT
  '169.254.0.0/16', // link-local
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const ALLOWED_V6 = ['::1/128', 'fc00::/7', 'fe80::/10'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

export const FORBIDDEN_BODY = { error: 'Forbidden: local network access only' } as const;

/**
 * The canonical form of a peer address: IPv4-mapped IPv6 unwrapped to IPv4, zone index
 * dropped. Undefined for anything that is not an IP address.
 */
export function canonicalAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const withoutZone = raw.split('%', 1)[0]!;
  if (!ipaddr.isValid(withoutZone)) return undefined;
  return ipaddr.process(withoutZone).toString();
}

export function isLocalAddress(raw: string | undefined): boolean {
  const canonical = canonicalAddress(raw);
  if (canonical === undefined) return false;
  const addr = ipaddr.parse(canonical);
  if (addr.kind() === 'ipv4') {
    return ALLOWED_V4.some((range) => (addr as ipaddr.IPv4).match(range));
  }
  return ALLOWED_V6.some((range) => (addr as ipaddr.IPv6).match(range));
}

/** The peer address of the TCP connection (not request.ip, which a proxy setting could change). */
export function peerAddress(request: FastifyRequest): string | undefined {
  return request.raw.socket?.remoteAddress;
}

// A connection's peer never changes: parse it once per connection, not on every hook.
const callers = new WeakMap<object, { address: string | undefined; local: boolean }>();

function judgeSocket(socket: object | undefined, raw: string | undefined) {
  if (!socket) return { address: canonicalAddress(raw), local: isLocalAddress(raw) };
  let c = callers.get(socket);
  if (!c) callers.set(socket, (c = { address: canonicalAddress(raw), local: isLocalAddress(raw) }));
  return c;
}

/** The caller's canonical address (IPv4-mapped unwrapped), for rate limiting, logs and history. */
export function callerAddress(request: FastifyRequest): string {
  return judgeSocket(request.raw.socket, peerAddress(request)).address ?? 'unknown';
}

export async function localNetworkGuard(request: FastifyRequest, reply: FastifyReply) {
  if (!judgeSocket(request.raw.socket, peerAddress(request)).local) {
    return reply.code(403).send(FORBIDDEN_BODY);
  }
}
