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

/** The same IPv4 ranges as numbers (base, mask), for the plain dotted form every IPv4 peer has. */
const ALLOWED_V4_NUMBERS = ALLOWED_V4.map(([addr, bits]) => {
  const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
  return { base: (toNumber(addr.octets) & mask) >>> 0, mask };
});

function toNumber(octets: number[]): number {
  return ((octets[0]! << 24) | (octets[1]! << 16) | (octets[2]! << 8) | octets[3]!) >>> 0;
}

/** A dotted IPv4 address, bare or IPv4-mapped (::ffff:a.b.c.d), without leading zeros: the peer forms Node reports. */
const PLAIN_V4 = /^(?:::ffff:)?((0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2}))$/i;

/** The octets of a plain dotted IPv4 peer (PLAIN_V4), or undefined for any other text (ipaddr.js judges those). */
function plainV4(raw: string): { text: string; octets: number[] } | undefined {
  const m = PLAIN_V4.exec(raw);
  if (!m) return undefined;
  const octets = [Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5])];
  return octets.every((o) => o <= 255) ? { text: m[1]!, octets } : undefined;
}

/**
 * The canonical form of a peer address: an IPv4-mapped IPv6 address (::ffff:a.b.c.d)
 * unwrapped to IPv4, zone index dropped. Only the mapped form is unwrapped: an
 * IPv4-compatible one (::a.b.c.d, deprecated) is a plain IPv6 address, outside every
 * allowed range (ipaddr.process() would unwrap it too). Undefined for anything that is
 * not an IP address.
 */
export function canonicalAddress(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const v4 = plainV4(raw);
  if (v4) return v4.text;
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
  const v4 = raw ? plainV4(raw) : undefined;
  if (v4) {
    const n = toNumber(v4.octets);
    return ALLOWED_V4_NUMBERS.some(({ base, mask }) => (n & mask) >>> 0 === base);
  }
  const canonical = canonicalAddress(raw);
  if (canonical === undefined) return false;
  const addr = ipaddr.parse(canonical);
  if (addr.kind() === 'ipv4') {
    return ALLOWED_V4.some((range) => (addr as ipaddr.IPv4).match(range));
  }
  return ALLOWED_V6.some((range) => (addr as ipaddr.IPv6).match(range));
}
