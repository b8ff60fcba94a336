// End to end: the local-network guard with real TCP source addresses. A network
// namespace joined to the root namespace by a veth pair holds the client addresses; the
// real `sms-gateway start` process listens on `::` port 8080 in the root namespace, and
// a small Node client run with `ip netns exec` (argv array, no shell) connects from each
// address to the root side of its subnet. All traffic stays on the veth pair.
//
// The subnets are /30 (IPv4) and /126 (IPv6), so the root namespace routes only four
// addresses per range into the veth while the test runs (8.8.4.0/30 leaves 8.8.4.4, a
// real resolver, alone). Needs root and iproute2; skipped with the reason otherwise.
import t from 'tap';
import { execFile } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/paths.js';
import { ip, mustIp, namespacesUnavailable } from '../fixtures/ip.js';

const NS = `smsgw-test-${process.pid}`;
const VETH_ROOT = `sgw${process.pid}r`; // interface names: at most 15 characters
const VETH_NS = `sgw${process.pid}n`;
const STARTUP_CALLER = '127.0.0.41';
const FORBIDDEN = '{"error":"Forbidden: local network access only"}';

interface Case {
  name: string;
  /** Address on the root side (the gateway's side) of the veth. */
  root: string;
  /** Source address of the client in the test namespace. */
  client: string;
  prefix: number;
  expect: 200 | 403;
  /** IPv6 link-local: addresses carry the interface as a zone. */
  scoped?: boolean;
}

const CASES: Case[] = [
  { name: 'documentation IPv4 (TEST-NET-3)', root: '203.0.113.1', client: '203.0.113.2', prefix: 30, expect: 403 },
  { name: 'public IPv4', root: '8.8.4.1', client: '8.8.4.2', prefix: 30, expect: 403 },
  {
    name: 'public IPv4 just past CGNAT (100.128.0.0)',
    root: '100.128.1.1',
    client: '100.128.1.2',
    prefix: 30,
    expect: 403,
  },
  { name: 'CGNAT IPv4 (100.64.0.0/10)', root: '100.64.1.1', client: '100.64.1.2', prefix: 30, expect: 200 },
  { name: 'link-local IPv4 (169.254.0.0/16)', root: '169.254.10.1', client: '169.254.10.2', prefix: 30, expect: 200 },
  { name: 'private IPv4 (192.168.0.0/16)', root: '192.168.77.1', client: '192.168.77.2', prefix: 30, expect: 200 },
  { name: 'IPv6 ULA (fc00::/7)', root: 'fd00:77::1', client: 'fd00:77::2', prefix: 126, expect: 200 },
  {
    name: 'IPv6 link-local (fe80::/10), zone on the wire',
    root: 'fe80::77:1',
    client: 'fe80::77:2',
    prefix: 64,
    expect: 200,
    scoped: true,
  },
  { name: 'public IPv6', root: '2001:4860::1', client: '2001:4860::2', prefix: 126, expect: 403 },
  {
    name: 'documentation IPv6 (2001:db8::/32)',
    root: '2001:db8:77::1',
    client: '2001:db8:77::2',
    prefix: 126,
    expect: 403,
  },
];

/**
 * The client, run inside the namespace: one HTTP GET /health (or raw bytes) from
 * `localAddress`, printing one JSON line with what came back.
 */
const CLIENT = `
const spec = JSON.parse(process.argv[1]);
const print = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
if (spec.raw !== undefined) {
  const socket = require('node:net').connect({ host: spec.host, port: 8080, localAddress: spec.localAddress }, () => socket.write(spec.raw));
  let data = '';
  socket.setEncoding('latin1');
  socket.on('data', (d) => (data += d));
  socket.on('error', (e) => print({ error: e.code || e.message, raw: data }));
  socket.on('close', () => print({ raw: data }));
  socket.setTimeout(5000, () => socket.destroy(new Error('timeout')));
} else {
  const req = require('node:http').request(
    { host: spec.host, port: 8080, path: '/health', localAddress: spec.localAddress, headers: spec.headers || {}, agent: false },
    (res) => {
      const local = res.socket.localAddress;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => print({ status: res.statusCode, body, local }));
    },
  );
  req.on('error', (e) => print({ error: e.code || e.message }));
  req.setTimeout(5000, () => req.destroy(new Error('timeout')));
  req.end();
}
`;

interface ClientResult {
  status?: number;
  body?: string;
  local?: string;
  raw?: string;
  error?: string;
}

/** Runs the client inside the namespace (no shell: ip's argv, then node's). */
function inNamespace(spec: {
  host: string;
  localAddress: string;
  headers?: Record<string, string>;
  raw?: string;
}): Promise<ClientResult> {
  return new Promise((resolve) => {
    execFile(
      'ip',
      ['netns', 'exec', NS, process.execPath, '-e', CLIENT, JSON.stringify(spec)],
      // A clean environment: no test-runner loader options for the client's node.
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 15_000, encoding: 'utf8' },
      (err, stdout, stderr) => {
        const line = stdout.trim().split('\n')[0] ?? '';
        try {
          resolve(JSON.parse(line) as ClientResult);
        } catch {
          resolve({
            error: `client printed ${JSON.stringify(stdout)} (${err?.message ?? 'exit 0'}; stderr ${JSON.stringify(stderr)})`,
          });
        }
      },
    );
  });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const unavailable = namespacesUnavailable(`${NS}-probe`);

t.test(
  'local-network guard with real source addresses from a network namespace',
  { skip: unavailable ? `network namespaces unavailable: ${unavailable}` : false },
  async (t) => {
    await holdPort8080(t);

    // Torn down whatever happens below; deleting the root end removes the pair at once.
    const cleanup = () => {
      ip(['link', 'del', VETH_ROOT]);
      ip(['netns', 'del', NS]);
    };
    cleanup(); // leftovers of an earlier run with the same pid
    t.teardown(cleanup);

    mustIp(['netns', 'add', NS]);
    mustIp(['link', 'add', VETH_ROOT, 'type', 'veth', 'peer', 'name', VETH_NS, 'netns', NS]);
    mustIp(['-n', NS, 'link', 'set', 'lo', 'up']);
    mustIp(['-n', NS, 'link', 'set', VETH_NS, 'up']);
    mustIp(['link', 'set', VETH_ROOT, 'up']);
    for (const c of CASES) {
      // IPv6 without duplicate address detection, so the addresses are usable at once.
      const v6 = c.root.includes(':') ? ['nodad'] : [];
      mustIp(['addr', 'add', `${c.root}/${c.prefix}`, 'dev', VETH_ROOT, ...v6]);
      mustIp(['-n', NS, 'addr', 'add', `${c.client}/${c.prefix}`, 'dev', VETH_NS, ...v6]);
    }

    const home = tempDir(t);
    const env = {
      ...process.env,
      SMS_GATEWAY_HOME: home,
      SMS_GATEWAY_MODE: 'simulated',
      PATH: '/usr/local/bin:/usr/bin:/bin',
    };
    const gw = await startGateway(t, env, STARTUP_CALLER);

    /** Waits (briefly: the log is written asynchronously) for the request line of a caller. */
    const logged = async (caller: string, status: number) => {
      const line = new RegExp(`"route":"/health","status":${status},"ms":[0-9.]+,"caller":"${escapeRegExp(caller)}"`);
      for (let i = 0; i < 40 && !line.test(gw.output()); i++) await sleep(50);
      return line.test(gw.output());
    };

    for (const c of CASES) {
      await t.test(`${c.name}: ${c.client} -> ${c.expect}`, async (t) => {
        const zone = c.scoped ? `%${VETH_NS}` : '';
        const res = await inNamespace({ host: `${c.root}${zone}`, localAddress: `${c.client}${zone}` });
        t.equal(res.error, undefined, 'the client got an answer');
        t.equal(res.local?.split('%')[0], c.client, 'the connection left from the intended source address');
        t.equal(res.status, c.expect, `status ${c.expect}`);
        if (c.expect === 403) t.equal(res.body, FORBIDDEN, "exactly the guard's 403 body");
        else t.equal(JSON.parse(res.body ?? '{}').status, 'ok', 'the /health body');
        t.ok(await logged(c.client, c.expect), `the gateway logged caller ${c.client} with ${c.expect}`);
      });
    }

    await t.test('forwarding headers do not change the verdict', async (t) => {
      const claims = { 'x-forwarded-for': '192.168.1.10', forwarded: 'for=192.168.1.10', 'x-real-ip': '127.0.0.1' };
      const fromPublic = await inNamespace({ host: '8.8.4.1', localAddress: '8.8.4.2', headers: claims });
      t.equal(fromPublic.status, 403, 'a public peer claiming a local address is refused');
      t.equal(fromPublic.body, FORBIDDEN, "exactly the guard's 403 body");
      const fromPrivate = await inNamespace({
        host: '192.168.77.1',
        localAddress: '192.168.77.2',
        headers: { 'x-forwarded-for': '8.8.8.8', forwarded: 'for=8.8.8.8', 'x-real-ip': '8.8.8.8' },
      });
      t.equal(fromPrivate.status, 200, 'a private peer claiming a public address is served');
    });

    await t.test("Node's parser never answers a public caller before the guard", async (t) => {
      const tricks: [string, string][] = [
        [
          'Expect: 100-continue',
          'POST /api/sms/send HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n',
        ],
        ['no Host header', 'GET /health HTTP/1.1\r\n\r\n'],
        ['Expect: 999', 'GET /health HTTP/1.1\r\nHost: x\r\nExpect: 999\r\n\r\n'],
      ];
      for (const [name, raw] of tricks) {
        const res = await inNamespace({ host: '203.0.113.1', localAddress: '203.0.113.2', raw });
        t.match(
          res.raw,
          /^HTTP\/1\.1 403 [\s\S]*\r\n\r\n\{"error":"Forbidden: local network access only"\}$/,
          `${name}: the 403 and nothing else`,
        );
        t.notMatch(res.raw, /100 Continue|HTTP\/1\.1 417|HTTP\/1\.1 400/, name);
      }
    });

    await t.test('an unparsable request from a public address', async (t) => {
      const res = await inNamespace({ host: '203.0.113.1', localAddress: '203.0.113.2', raw: 'HELLO WORLD\r\n\r\n' });
      const status = /^HTTP\/1\.1 (\d{3}) /.exec(res.raw ?? '');
      t.ok(res.raw === '' || (status && Number(status[1]) < 500), 'a 4xx or a closed socket, never a 5xx', {
        found: res,
      });
      t.match(
        res.raw,
        /^HTTP\/1\.1 403 [\s\S]*\r\n\r\n\{"error":"Forbidden: local network access only"\}$/,
        'refused by the guard (403), like every other answer to a public peer',
      );
    });
  },
);
