// Addresses: what counts as the local network (the ranges of docs/design.md, "The guard order") and the
// canonical form of a peer address. Plain functions of a string: the HTTP guard, the LAN
// address finder and host info all judge addresses the same way.
import ipaddr from 'ipaddr.js';

const ALLOWED_V4 = [
  '127.0.0.0/8',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10', // carrier-grade NAT
  '169.254.0.0/16', // link-local
].map((cidr) => ipaddr.IPv4.parseCIDR(cidr));

const ALLOWED_V6 = ['::1/128', 'fc00::/7', 'fe80::/10'].map((cidr) => ipaddr.IPv6.parseCIDR(cidr));

/**
 * The canonical form of a peer address: an IPv4-mapped IPv6 address (::ffff:a.b.c.d)
 * unwrapped to IPv4, zone index dropped. Only the mapped form is unwrapped: an
 * IPv4-compatible one (::a.b.c.d, deprecated) is a plain IPv6 address, outside every
 * allowed range (ipaddr.process() would unwrap it too). Undefined for anything that is
 * not an IP address.
 */
export function canonicalAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const withoutZone = raw.split('%', 1)[0]!;
  if (!ipaddr.isValid(withoutZone)) return undefined;
  const addr = ipaddr.parse(dottedTailAsHex(withoutZone));
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    return (addr as ipaddr.IPv6).toIPv4Address().toString();
  }
  return addr.toString();
}

/**
 * An IPv6 text with a dotted IPv4 tail, the tail written as two hex groups: ipaddr.js
 * parses "::10.0.0.1" as if it were "::ffff:10.0.0.1", so the tail is converted first.
 */
function dottedTailAsHex(text: string): string {
  const m = /^(.*:)(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return text;
  const [a, b, c, d] = m.slice(2).map(Number) as [number, number, number, number];
  return `${m[1]}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
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
