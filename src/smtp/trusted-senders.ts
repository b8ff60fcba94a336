// SMS_GATEWAY_SMTP_TRUSTED as a test of a peer address: the listed addresses and CIDRs
// (IPv4 or IPv6; a peer's IPv4-mapped form counts as its IPv4 address) may send without AUTH.
import ipaddr from 'ipaddr.js';
import { canonicalAddress } from '../core/addresses.js';

export function trustedSenders(entries: readonly string[]): (peer: string | undefined) => boolean {
  const ranges = entries.map((entry) =>
    ipaddr.isValidCIDR(entry)
      ? ipaddr.parseCIDR(entry)
      : ipaddr.parseCIDR(`${entry}/${ipaddr.parse(entry).kind() === 'ipv4' ? 32 : 128}`),
  );
  return (peer) => {
    const canonical = canonicalAddress(peer);
    if (canonical === undefined || ranges.length === 0) return false;
    const addr = ipaddr.parse(canonical);
    return ranges.some((range) => addr.kind() === range[0].kind() && addr.match(range));
  };
}
