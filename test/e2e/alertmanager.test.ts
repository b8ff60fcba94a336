// A real Alertmanager (Debian's prometheus-alertmanager) pages through the real gateway
// process (real mode, fake termux-sms-send), configured with the receiver of docs/alerts.md
// (webhook_configs, http_config.authorization.credentials = the key, send_resolved) and a
// short group_wait: an alert posted to its /api/v2/alerts reaches the history as the expected
// SMS, one per recipient; resolving it sends the resolved text. The first delivery is refused:
// a small proxy between the two passes it to the gateway (which queues it) and answers
// Alertmanager 503, the answer lost on the way; Alertmanager retries, and nothing is sent twice.
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { freePort } from '../mqtt/broker.js';
import { PORT } from '../../src/core/runtime.js';

const ALERTMANAGER = '/usr/bin/prometheus-alertmanager';
const noAlertmanager = existsSync(ALERTMANAGER)
  ? false
  : `${ALERTMANAGER} is not installed (apt-get install prometheus-alertmanager)`;

interface Passed {
  gatewayStatus: number;
  answered: number;
}

/** Passes receiver calls to the gateway; the first one's answer is replaced by a 503. */
async function lossyProxy(t: Test) {
  const passed: Passed[] = [];
  const port = await freePort();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = httpRequest(
        {
          host: '127.0.0.1',
          port: PORT,
          path: req.url,
          method: req.method,
          headers: req.headers,
          localAddress: '127.0.0.1',
          agent: false,
        },
        (gw) => {
          const body: Buffer[] = [];
          gw.on('data', (c: Buffer) => body.push(c));
          gw.on('end', () => {
            const first = passed.length === 0;
            passed.push({ gatewayStatus: gw.statusCode ?? 0, answered: first ? 503 : (gw.statusCode ?? 0) });
            if (first) res.writeHead(503, { 'content-type': 'application/json' }).end('{"lost":"the answer"}');
            else res.writeHead(gw.statusCode ?? 502, { 'content-type': 'application/json' }).end(Buffer.concat(body));
          });
        },
      );
      out.on('error', () => res.writeHead(502).end());
      out.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  return { port, passed };
}

/** The receiver as docs/alerts.md shows it, with short timings and the proxy's address. */
function alertmanagerYml(proxyPort: number, key: string): string {
  return `route:
  receiver: sms
  group_by: ['alertname']
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 4h
receivers:
  - name: sms
    webhook_configs:
      - url: 'http://127.0.0.1:${proxyPort}/api/receivers/alertmanager?to=+15550100001,Alice'
        send_resolved: true
        http_config:
          authorization:
            credentials: '${key}'
`;
}

t.test(
  'an alert fired and resolved through a real Alertmanager: one SMS each per recipient, nothing twice after a refused delivery',
  { skip: noAlertmanager },
  async (t) => {
    await holdPort8080(t);
    const home = tempDir(t);
    const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
    fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
    const env = { ...fake.env, SMS_GATEWAY_HOME: home, SMS_GATEWAY_CONTACTS: 'Alice:+15550100002' };
    const caller = '127.0.0.61';
    await startGateway(t, env, caller);
    const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
    const auth = { authorization: `Bearer ${key}` };
    const proxy = await lossyProxy(t);

    const dir = tempDir(t, 'smsgw-am-');
    writeFileSync(join(dir, 'alertmanager.yml'), alertmanagerYml(proxy.port, key));
    const amPort = await freePort();
    const am = spawn(
      ALERTMANAGER,
      [
        `--config.file=${join(dir, 'alertmanager.yml')}`,
        `--storage.path=${join(dir, 'data')}`,
        `--web.listen-address=127.0.0.1:${amPort}`,
        '--cluster.listen-address=',
        '--log.level=warn',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let amLog = '';
    am.stderr!.on('data', (d: Buffer) => (amLog += d.toString()));
    t.teardown(() => void am.kill('SIGKILL'));
    const amApi = (path: string, method = 'GET', body?: unknown) =>
      fetch(`http://127.0.0.1:${amPort}${path}`, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    await waitFor(`Alertmanager to listen: ${amLog}`, async () =>
      (await amApi('/-/ready').catch(() => undefined))?.ok ? true : undefined,
    );

    const alert = {
      labels: { alertname: 'HighLatency', severity: 'critical', instance: 'api-1' },
      annotations: { summary: 'p99 “above” 2s on api-1' },
    };
    const startsAt = new Date().toISOString();
    t.equal(
      (await amApi('/api/v2/alerts', 'POST', [{ ...alert, startsAt }])).status,
      200,
      'Alertmanager took the alert',
    );

    const bodies = async () => {
      const res = await httpGet('/api/messages?limit=100', auth, caller);
      return (JSON.parse(res.body).data as { to: string; body: string; status: string }[]).reverse();
    };
    const firing = 'FIRING: HighLatency critical: p99 "above" 2s on api-1';
    const sentTexts = () => fake.calls('termux-sms-send').map((c) => c.stdin.toString());
    await waitFor(
      'the firing SMS handed off to both recipients',
      () => (sentTexts().filter((s) => s === firing).length === 2 ? true : undefined),
      60_000,
      250,
    );
    await waitFor(
      'a delivery Alertmanager saw succeed',
      () => (proxy.passed.some((p) => p.answered === 200) ? true : undefined),
      60_000,
      250,
    );
    t.equal(
      proxy.passed[0]?.gatewayStatus,
      200,
      'the first delivery reached the gateway (and queued), its answer was lost: Alertmanager saw 503',
    );
    t.ok(proxy.passed.length >= 2, 'Alertmanager retried');
    t.same(
      (await bodies()).map((m) => [m.to, m.body]),
      [
        ['+15550100001', firing],
        ['+15550100002', firing],
      ],
      'the history: one firing SMS per recipient, not one more for the retry',
    );

    const resolvedAt = new Date().toISOString();
    t.equal(
      (await amApi('/api/v2/alerts', 'POST', [{ ...alert, startsAt, endsAt: resolvedAt }])).status,
      200,
      'resolved',
    );
    const resolved = 'RESOLVED: HighLatency critical: p99 "above" 2s on api-1';
    await waitFor(
      'the resolved SMS handed off to both recipients',
      () => (sentTexts().filter((s) => s === resolved).length === 2 ? true : undefined),
      60_000,
      250,
    );
    t.same(
      (await bodies()).map((m) => [m.to, m.body]),
      [
        ['+15550100001', firing],
        ['+15550100002', firing],
        ['+15550100001', resolved],
        ['+15550100002', resolved],
      ],
      'the resolved SMS once per recipient',
    );
    t.same(sentTexts(), [firing, firing, resolved, resolved], 'the phone was handed each message once');
  },
);
