// Secrets: after a full run of sends, rotations, errors, webhook deliveries and an inbound
// SMS, with every log level on, the captured log contains neither an API key, nor the
// webhook secret, nor the Authorization header, nor any message body or phone number.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';
import { startReceiver } from '../fixtures/receiver.js';

t.test('nothing secret reaches the log', async (t) => {
  await holdPort8080(t);
  const rx = await startReceiver(t);
  const down = await startReceiver(t, () => 500); // failed deliveries get logged too
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  fake.output(
    'termux-sms-list',
    JSON.stringify([
      {
        threadid: 1,
        type: 'inbox',
        read: false,
        address: '+4915100000009',
        number: '+4915100000009',
        received: '2026-11-21 10:00:00',
        body: 'INBOUND-SECRET-TEXT-0',
        _id: 1,
      },
    ]),
  );
  const env = {
    ...fake.env,
    SMS_GATEWAY_HOME: tempDir(t),
    LOG_LEVEL: 'trace',
    SMS_GATEWAY_WEBHOOK_URLS: `${rx.url},${down.url}`,
    SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
  };
  const caller = '127.0.0.11';
  const gw = await startGateway(t, env, caller);
  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' }).stdout.trim();
  const keys = [cli('key', 'show')];
  const secrets = [cli('webhook', 'secret')];
  const bodies: string[] = [];
  const post = (key: string, body: unknown, headers: Record<string, string> = {}) =>
    httpGet(
      '/api/sms/send',
      { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers },
      caller,
      'POST',
      typeof body === 'string' ? body : JSON.stringify(body),
    );

  for (let i = 0; i < 3; i++) {
    const text = `OUTBOUND-SECRET-TEXT-${i} ${'é'.repeat(i * 40)}`;
    bodies.push(text);
    if (i === 1) fake.mode('termux-sms-send', 'permission');
    if (i === 2) fake.mode('termux-sms-send', 'ok');
    const res = await post(keys.at(-1)!, { to: '+4915112345678', message: text }, { 'idempotency-key': `idem-${i}` });
    t.equal(res.status, i === 1 ? 502 : 200, `send ${i} answered as expected (the log then has something to hide)`);
    await sleep(1050);
  }
  bodies.push('BAD-JSON-SECRET-TEXT');
  t.equal((await post(keys.at(-1)!, '{"to":"1234","message":"BAD-JSON-SECRET-TEXT"')).status, 400);
  bodies.push('OVERSIZED-SECRET-TEXT');
  t.equal(
    (await post(keys.at(-1)!, { to: '1234', message: `OVERSIZED-SECRET-TEXT${'x'.repeat(20_000)}` })).status,
    413,
  );
  t.equal((await post('sk_local_wrongwrongwrongwrongwrongwrong', { to: '1234', message: 'x' })).status, 401);
  await httpGet('/api/nothing-here', { authorization: `Bearer ${keys.at(-1)}` }, caller);
  keys.push(cli('key', 'rotate'));
  secrets.push(cli('webhook', 'rotate'));
  bodies.push('AFTER-ROTATION-SECRET-TEXT');
  t.equal((await post(keys.at(-1)!, { to: '+4915112345678', message: 'AFTER-ROTATION-SECRET-TEXT' })).status, 200);
  t.equal((await post(keys[0]!, { to: '+4915112345678', message: 'x' })).status, 401, 'the old key');
  // An inbound SMS arrives; events are delivered (the first try of each fails).
  fake.output(
    'termux-sms-list',
    JSON.stringify([
      {
        threadid: 1,
        type: 'inbox',
        read: false,
        address: '+4915100000009',
        number: '+4915100000009',
        received: '2026-11-21 10:00:00',
        body: 'INBOUND-SECRET-TEXT-0',
        _id: 1,
      },
      {
        threadid: 1,
        type: 'inbox',
        read: false,
        address: '+4915100000009',
        number: '+4915100000009',
        received: '2026-11-21 10:05:00',
        body: 'INBOUND-SECRET-TEXT-1',
        _id: 2,
      },
    ]),
  );
  bodies.push('INBOUND-SECRET-TEXT-1');
  for (let i = 0; i < 100 && !rx.received.some((r) => r.body.includes('INBOUND-SECRET-TEXT-1')); i++) await sleep(100);
  t.ok(
    rx.received.some((r) => r.body.includes('INBOUND-SECRET-TEXT-1')),
    'the inbound SMS was delivered as an event',
  );
  t.ok(down.received.length > 0, 'the failing target was tried');
  await httpGet('/api/diagnostics', { authorization: `Bearer ${keys.at(-1)}` }, caller);
  gw.proc.kill('SIGTERM');
  await gw.exited;

  const log = gw.output();
  t.ok(log.split('\n').length > 20, `a real log was captured (${log.split('\n').length} lines)`);
  t.match(log, /"level":10|"level":20|"level":30/, 'the log is pino JSON at low levels');
  for (const k of keys) t.notOk(log.includes(k), 'no API key in the log');
  for (const s of secrets) {
    t.notOk(log.includes(s), 'no webhook secret in the log');
    t.notOk(log.includes(s.slice('whsec_'.length)), 'not even its base64 part');
  }
  t.notMatch(log, /[Bb]earer /, 'no Authorization header value');
  t.notMatch(log, /sk_local_/, 'nothing key-shaped');
  for (const b of bodies) t.notOk(log.includes(b.slice(0, 20)), `no message body (${b.slice(0, 20)})`);
  t.notMatch(log, /INBOUND-SECRET-TEXT/);
  t.notMatch(log, /\+4915112345678|\+4915100000009/, 'no phone numbers either');
});
