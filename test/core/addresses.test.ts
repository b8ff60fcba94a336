// The plain dotted IPv4 path of core/addresses.ts (every IPv4 peer Node reports, bare or
// IPv4-mapped) judges as ipaddr.js does: the same canonical form and the same local ranges,
// over the edges of every range and a spread of addresses.
import t from 'tap';
import ipaddr from 'ipaddr.js';
import { canonicalAddress, isLocalAddress } from '../../src/core/addresses.js';

const RANGES = ['127.0.0.0/8', '10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', '169.254.0.0/16'];
const byIpaddr = (text: string) => RANGES.some((r) => ipaddr.IPv4.parse(text).match(ipaddr.IPv4.parseCIDR(r)));

const dotted = (v: number) => [v >>> 24, (v >>> 16) & 255, (v >>> 8) & 255, v & 255].join('.');

function samples(): string[] {
  const out: string[] = [];
  for (const r of RANGES) {
    const [base, bits] = ipaddr.IPv4.parseCIDR(r);
    const n = base.octets.reduce((a, o) => a * 256 + o, 0);
    const size = 2 ** (32 - bits);
    for (const v of [n - 1, n, n + 1, n + size - 1, n + size]) out.push(dotted(v));
  }
  let seed = 11;
  for (let i = 0; i < 2000; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out.push(dotted(seed * 2));
  }
  return out;
}

t.test('plain and mapped IPv4 peers: the same answers as ipaddr.js', async (t) => {
  let checked = 0;
  for (const text of samples()) {
    for (const raw of [text, `::ffff:${text}`, `::FFFF:${text}`]) {
      const same = canonicalAddress(raw) === text && isLocalAddress(raw) === byIpaddr(text);
      if (!same) t.fail(`${raw}: ${canonicalAddress(raw)} ${isLocalAddress(raw)}`);
      checked++;
    }
  }
  t.pass(`${checked} addresses agree`);
});

t.test('forms outside the plain path still go through ipaddr.js', async (t) => {
  const octal = ipaddr.parse('010.0.0.1').toString();
  t.equal(canonicalAddress('010.0.0.1'), octal, 'a leading zero: read as ipaddr.js reads it');
  t.equal(canonicalAddress('256.1.1.1'), undefined, 'an octet over 255 is no address');
  t.equal(isLocalAddress('::ffff:300.0.0.1'), false);
});
