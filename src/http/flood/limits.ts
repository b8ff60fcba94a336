// The numbers of the flood defence, and where a caller's connections count. What one LAN
// host (or one outside the LAN) may hold of the phone's sockets: MAX_CONNECTIONS_PER_ADDRESS
// per address, MAX_CONNECTIONS_PER_PREFIX per IPv6 /64 of the local network (one host may
// hold many addresses of its prefix), MAX_OUTSIDE_CONNECTIONS for every caller outside the
// local network together (they only ever get a 403) and MAX_CONNECTIONS in all, which may be
// passed by MAX_CONNECTIONS_GRACE for CONNECTIONS_GRACE_MS: a newcomer's headers are read only
// after every connection of its accept batch has been accepted, so without that slack an
// honest newcomer early in a large batch would be closed before its request is read. 256
// more sockets cost a few MB, within the flood's memory bound.
import ipaddr from 'ipaddr.js';
import { canonicalAddress, isLocalAddress } from '../../core/addresses.js';
import type { CallerPlace, TableLimits } from './connection-table.js';

export const MAX_CONNECTIONS_PER_ADDRESS = 32;
export const MAX_CONNECTIONS_PER_PREFIX = 128;
export const MAX_OUTSIDE_CONNECTIONS = 16;
export const MAX_CONNECTIONS = 256;
export const MAX_CONNECTIONS_GRACE = 256;
export const CONNECTIONS_GRACE_MS = 500;
/** Idle keep-alive connections close after this (Node's own timer per socket). */
export const KEEP_ALIVE_MS = 5_000;
/** A connection without a complete request's headers is closed after this (the table's sweep). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A request's body must have fully arrived this long after its headers. */
export const REQUEST_TIMEOUT_MS = 15_000;
/**
 * The kernel's queue of connections not yet accepted (capped by net.core.somaxconn). A flood
 * that fills it makes the kernel drop everyone's SYNs, a newcomer's too (retried after 1 s):
 * Node's 511 is less than what 1 000 reconnecting addresses keep waiting.
 */
export const LISTEN_BACKLOG = 4096;

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

/** Where a peer's connections count: its address, its /64 (IPv6 on the LAN), outside or not. */
export function callerPlace(raw: string | undefined): CallerPlace {
  const address = canonicalAddress(raw);
  if (address === undefined) return { address: 'unknown', outside: true };
  if (!isLocalAddress(address)) return { address, outside: true };
  if (!address.includes(':')) return { address, outside: false };
  const parts = ipaddr.IPv6.parse(address).parts.slice(0, 4);
  return { address, prefix: `${parts.map((p) => p.toString(16)).join(':')}::/64`, outside: false };
}
