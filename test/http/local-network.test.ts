import t from 'tap';
import { isLocalAddress, canonicalAddress } from '../../src/core/addresses.js';
import { FORBIDDEN_BODY } from '../../src/http/local-network.js';
import { testApp } from '../helpers/test-app.js';

const allowed = [
  '127.0.0.1',
  '127.255.255.254',
  '10.0.0.0',
  '10.255.255.255',
  '172.16.0.0',
  '172.31.255.255',
  '192.168.0.0',
  '192.168.255.255',
  '100.64.0.0',
  '100.127.255.255',
  '169.254.0.0',
  '169.254.255.255',
  '::1',
  'fc00::',
  'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe80::',
  'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  '::ffff:10.0.0.1',
  '::ffff:127.0.0.1',
  '::ffff:192.168.1.20',
  'fe80::1%wlan0',
  '0:0:0:0:0:ffff:10.0.0.1',
  '::FFFF:192.168.1.2',
];
const refused = [
  '172.15.255.255',
  '172.32.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '192.167.255.255',
  '192.169.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '126.255.255.255',
  '128.0.0.0',
  'fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fe00::',
  'fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  'fec0::',
  '::ffff:8.8.8.8',
  '0.0.0.0',
  '::',
  '8.8.8.8',
  '1.1.1.1',
  '224.0.0.1',
  '255.255.255.255',
  'ff02::1',
  '192.0.2.1',
  '198.51.100.1',
  '203.0.113.1',
  '2001:db8::1',
  '2606:4700::1111',
  '::2',
  '',
  'not-an-ip',
  '999.1.1.1',
  // IPv4-compatible IPv6 (::a.b.c.d) is not the mapped form: never unwrapped.
  '::10.0.0.1',
  '::127.0.0.1',
  '::192.168.1.20',
  '0:0:0:0:0:0:10.0.0.1',
];

t.test('every allowed range and its edges are allowed', async (t) => {
  for (const ip of allowed) t.equal(isLocalAddress(ip), true, ip);
});

t.test('neighbours just outside, public, unspecified, multicast and documentation ranges are refused', async (t) => {
  for (const ip of refused) t.equal(isLocalAddress(ip), false, ip || '(empty)');
  t.equal(isLocalAddress(undefined), false, 'no address');
});

t.test('IPv4-mapped IPv6 is judged as IPv4', async (t) => {
  t.equal(canonicalAddress('::ffff:10.0.0.1'), '10.0.0.1');
  t.equal(canonicalAddress('::ffff:8.8.8.8'), '8.8.8.8');
  t.equal(canonicalAddress('fe80::1%eth0'), 'fe80::1');
  t.equal(canonicalAddress('nonsense'), undefined);
  t.equal(canonicalAddress('::10.0.0.1'), '::a00:1', 'the IPv4-compatible form stays IPv6');
});

t.test('the guard answers 403 with the exact body on every route, /health included', async (t) => {
  const { app, key } = await testApp(t);
  for (const url of ['/health', '/api/messages', '/openapi.json', '/no/such/route']) {
    const res = await app.inject({ url, remoteAddress: '8.8.8.8', headers: { authorization: `Bearer ${key}` } });
    t.equal(res.statusCode, 403, url);
    t.same(res.json(), FORBIDDEN_BODY, url);
    t.equal(res.body, '{"error":"Forbidden: local network access only"}');
  }
  const mapped = await app.inject({ url: '/health', remoteAddress: '::ffff:8.8.8.8' });
  t.equal(mapped.statusCode, 403, 'mapped public address refused');
  const ok = await app.inject({ url: '/health', remoteAddress: '::ffff:10.0.0.1' });
  t.equal(ok.statusCode, 200, 'mapped private address allowed');
});

t.test('X-Forwarded-For and Forwarded are ignored: only the TCP peer counts', async (t) => {
  const { app } = await testApp(t);
  const spoofed = await app.inject({
    url: '/health',
    remoteAddress: '203.0.113.9',
    headers: { 'x-forwarded-for': '192.168.1.2', forwarded: 'for=192.168.1.2', 'x-real-ip': '127.0.0.1' },
  });
  t.equal(spoofed.statusCode, 403);
  const local = await app.inject({
    url: '/health',
    remoteAddress: '192.168.1.2',
    headers: { 'x-forwarded-for': '8.8.8.8' },
  });
  t.equal(local.statusCode, 200);
});

t.test('a URL the router cannot decode still meets the guards in order: 403, 429, 401, then 400', async (t) => {
  const { app, key } = await testApp(t);
  const bad = '/api/messages/%ff';
  const outside = await app.inject({ url: bad, remoteAddress: '8.8.8.8', headers: { authorization: `Bearer ${key}` } });
  t.equal(outside.statusCode, 403);
  t.same(outside.json(), FORBIDDEN_BODY);
  const noKey = await app.inject({ url: bad, remoteAddress: '10.2.2.2' });
  t.equal(noKey.statusCode, 401);
  t.same(noKey.json(), { error: 'Unauthorized' });
  const withKey = await app.inject({
    url: bad,
    remoteAddress: '10.2.2.2',
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(withKey.statusCode, 400);
  t.equal(withKey.json().error.code, 'invalid_request');
  for (let i = 0; i < 30; i++) await app.inject({ url: bad, remoteAddress: '10.2.2.3' });
  const flooded = await app.inject({ url: bad, remoteAddress: '10.2.2.3' });
  t.equal(flooded.statusCode, 429, 'bad URLs count against the caller too');
  t.equal(flooded.json().error.code, 'rate_limited');
});
