// sms-gateway webhook: secret/rotate on the home; list/add/remove/test through the running
// gateway's API (here the real app listening on 127.0.0.1:8080 in this process, under the
// machine-wide port lock), so they see the gateway's targets, not this shell's environment.
import t, { type Test } from 'tap';
import { Webhook } from 'standardwebhooks';
import { fakeClock } from '../../helpers/fake-clock.js';
import { holdPort8080 } from '../../helpers/gateway-process.js';
import { tempDir } from '../../helpers/paths.js';
import { runCli } from '../../helpers/cli.js';
import { testApp } from '../../helpers/test-app.js';
import { startReceiver } from '../../fixtures/receiver.js';
import { PORT } from '../../../src/core/runtime.js';

const run = runCli;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

/** The app on port 8080 (loopback), with its home for the CLI. */
async function listening(t: Test, webhookUrls: string[] = []) {
  await holdPort8080(t); // teardowns run last-in first-out: the app closes before the lock goes
  const a = await testApp(t, { webhookUrls, clock: fakeClock(Date.now()), webhookTimeoutMs: 2000 });
  await a.app.listen({ port: PORT, host: '127.0.0.1' });
  // The CLI runs in this process and shares its fetch connection pool: a pooled
  // connection to the previous test's app (closed under it) is used up here, not by the CLI.
  for (let i = 0; i < 3; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (r) => r.text().then(() => r.ok),
      () => false,
    );
    if (ok) break;
  }
  // A fresh home's `secret` would be another one: the CLI reads the key from this home.
  return { ...a, env: { SMS_GATEWAY_HOME: a.home } };
}

/** A home with its API key, as a gateway's first start leaves it (the CLI never makes one but by key rotate). */
async function keyedHome(t: Test): Promise<string> {
  const home = tempDir(t);
  t.equal((await run(['key', 'rotate'], { SMS_GATEWAY_HOME: home })).code, 0);
  return home;
}

t.test('secret prints the same secret until rotate replaces it', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  t.equal((await run(['webhook', 'secret'], env)).code, 1, 'no secret before the first start or rotate');
  t.equal((await run(['webhook', 'rotate'], env)).code, 0);
  const a = await run(['webhook', 'secret'], env);
  t.equal(a.code, 0);
  t.match(a.out, /^whsec_[A-Za-z0-9+/]{43}=\n$/);
  t.equal((await run(['webhook', 'secret'], env)).out, a.out);
  const r = await run(['webhook', 'rotate'], env);
  t.not(r.out, a.out);
  t.equal((await run(['webhook', 'secret'], env)).out, r.out);
});

t.test('usage errors exit 2', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  for (const args of [
    [],
    ['send'],
    ['add'],
    ['add', 'a', 'b'],
    ['remove'],
    ['list', '--yaml'],
    ['test', 'x'],
    ['secret', 'x'],
    ['constructor'],
  ]) {
    t.equal((await run(['webhook', ...args], env)).code, 2, args.join(' '));
  }
});

t.test('without a running gateway: exit 1 and the hint', async (t) => {
  await holdPort8080(t); // nothing else listens on 8080 meanwhile
  const r = await run(['webhook', 'list'], { SMS_GATEWAY_HOME: await keyedHome(t) });
  t.equal(r.code, 1);
  t.match(r.err, /cannot reach the gateway at http:\/\/127\.0\.0\.1:8080.*is `sms-gateway start` running\?/);
});

t.test("another home's key: the line names the key file and SMS_GATEWAY_HOME", async (t) => {
  await listening(t);
  const other = await keyedHome(t);
  const r = await run(['webhook', 'list'], { SMS_GATEWAY_HOME: other });
  t.equal(r.code, 1);
  t.match(r.err, `does not accept the API key in ${other}/api-key`);
  t.match(r.err, /SMS_GATEWAY_HOME/);
});

t.test('add, list, remove through the running gateway', async (t) => {
  const g = await listening(t, ['http://192.168.1.10:8123/api/webhook/env']);
  const none = await run(['webhook', 'add', 'ftp://example.net/x'], g.env);
  t.equal(none.code, 1);
  t.match(none.err, /^sms-gateway: Invalid request: body\.url must start with http:\/\/ or https:\/\//);

  const added = await run(['webhook', 'add', 'https://hooks.example.net/sms?token=abc'], g.env);
  t.equal(added.code, 0, added.err);
  const id = /^(wh_[0-9a-z]{26}) {2}https:\/\/hooks\.example\.net\/sms\?token=abc\n/.exec(added.out)?.[1];
  t.ok(id, added.out);
  t.same(
    g.gateway.webhooks.targets.list().map((x) => x.url),
    ['http://192.168.1.10:8123/api/webhook/env', 'https://hooks.example.net/sms?token=abc'],
    'stored by the gateway',
  );

  const list = await run(['webhook', 'list'], g.env);
  t.equal(list.code, 0);
  t.match(list.out, /^wh_[0-9a-z]{26} {2}env {2}on {3}http:\/\/192\.168\.1\.10:8123\/api\/webhook\/env\n/);
  t.match(list.out, new RegExp(`\\n${id}  api  on   https://hooks\\.example\\.net/sms\\?token=abc\\n$`));
  const json = JSON.parse((await run(['webhook', 'list', '--json'], g.env)).out);
  t.same(
    json.map((x: { source: string }) => x.source),
    ['env', 'api'],
  );

  const envRemove = await run(['webhook', 'remove', json[0].id], g.env);
  t.equal(envRemove.code, 1);
  t.match(envRemove.err, /comes from SMS_GATEWAY_WEBHOOK_URLS/);

  const removed = await run(['webhook', 'remove', id!], g.env);
  t.equal(removed.code, 0, removed.err);
  t.equal(removed.out, `Removed ${id}; it receives no more events.\n`);
  t.equal(g.gateway.webhooks.targets.list().length, 1);
  const again = await run(['webhook', 'remove', id!], g.env);
  t.equal(again.code, 1);
  t.match(again.err, /No webhook target/);
});

t.test("test: the running gateway sends the test event to its own targets, not the shell's", async (t) => {
  const good = await startReceiver(t);
  const bad = await startReceiver(t, () => 401);
  const shellOnly = await startReceiver(t);
  const g = await listening(t, [good.url]);
  const add = await run(['webhook', 'add', bad.url.replace('/hook', '/api')], g.env);
  t.equal(add.code, 0, add.err);

  // This shell's SMS_GATEWAY_WEBHOOK_URLS is not what the gateway uses.
  const r = await run(['webhook', 'test'], { ...g.env, SMS_GATEWAY_WEBHOOK_URLS: shellOnly.url });
  t.equal(r.code, 1, 'one target failed');
  t.match(r.out, new RegExp(`${good.url}: delivered \\(HTTP 200\\)\\n`));
  t.match(
    r.out,
    /\/api: FAILED \(HTTP 401\): the receiver refused the signature\. The likely cause is the secret: give the receiver the one in .*webhook-secret \(`sms-gateway webhook secret`, with the same SMS_GATEWAY_HOME as the gateway\)/,
  );
  t.equal(shellOnly.received.length, 0);
  const event = new Webhook(SECRET).verify(
    good.received[0]!.body,
    good.received[0]!.headers as Record<string, string>,
  ) as { type: string };
  t.equal(event.type, 'gateway.test');
});

t.test('test: a target switched off by 410 is switched back on; exit 0 when all answer 2xx', async (t) => {
  const rx = await startReceiver(t);
  const g = await listening(t, [rx.url]);
  g.gateway.webhooks.outbox.disable(rx.url, g.clock.now(), 'HTTP 410 Gone: switched off');
  t.match((await run(['webhook', 'list'], g.env)).out, / env {2}off {2}/);
  const r = await run(['webhook', 'test'], g.env);
  t.equal(r.code, 0, r.err);
  t.match(r.out, /delivered \(HTTP 200\); switched back on/);
  t.equal(g.gateway.webhooks.outbox.status()[0]!.disabled, false);
});

t.test('test and list without targets', async (t) => {
  const g = await listening(t);
  const list = await run(['webhook', 'list'], g.env);
  t.equal(list.code, 0);
  t.match(list.out, /^No webhook targets: add one with `sms-gateway webhook add <url>`/);
  const r = await run(['webhook', 'test'], g.env);
  t.equal(r.code, 1);
  t.match(r.err, /no webhook targets: add one with `sms-gateway webhook add <url>` or set SMS_GATEWAY_WEBHOOK_URLS/);
});

t.test('add of a URL registered already and switched off (410) says so, and how to switch it back on', async (t) => {
  const g = await listening(t);
  const url = 'http://192.168.1.10:8123/api/webhook/gone';
  t.equal((await run(['webhook', 'add', url], g.env)).code, 0);
  g.gateway.webhooks.outbox.disable(url, Date.now(), 'HTTP 410 Gone: switched off');
  const again = await run(['webhook', 'add', url], g.env);
  t.equal(again.code, 0);
  t.match(
    again.out,
    /registered already and switched off \(it answered 410 Gone\).*`sms-gateway webhook test` switches it back on/,
  );
  t.notMatch(again.out, /receives every event from now on/);
});
