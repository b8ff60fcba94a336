// A laptop without a phone: `sms-gateway simulate receive` puts an SMS into the simulated
// inbox; the gateway's watcher reads it (in place of termux-sms-list) into GET /api/inbox
// and the webhooks, and diagnostics stay ok (no inbox that cannot exist is polled).
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { simulatedSmsList } from '../../../src/device/simulated-inbox.js';
import type { Test } from 'tap';
import { PORT } from '../../../src/core/runtime.js';
import { fakeClock } from '../../helpers/fake-clock.js';
import { holdPort8080 } from '../../helpers/gateway-process.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/paths.js';
import { testApp, type TestAppOptions } from '../../helpers/test-app.js';
import { startReceiver } from '../../fixtures/receiver.js';

t.test('usage errors exit 2', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t), PATH: '/nonexistent' };
  for (const args of [
    [],
    ['receive'],
    ['receive', 'text'],
    ['receive', '--from', '+1555'],
    ['receive', '--from', '+1', 'a', 'b'],
    ['send', '--from', '+1', 'x'],
    ['receive', '--from', ' ', 'x'],
  ]) {
    t.equal((await runCli(['simulate', ...args], env)).code, 2, args.join(' '));
  }
});

/** The app on port 8080 (loopback), reading the simulated inbox of its home: the CLI asks it whether its watcher runs. */
async function listening(t: Test, opts: TestAppOptions = {}) {
  await holdPort8080(t); // teardowns run last-in first-out: the app closes before the lock goes
  const home = tempDir(t);
  const a = await testApp(t, {
    home,
    clock: fakeClock(Date.now()),
    inboxList: simulatedSmsList(home, () => 'UTC'),
    ...opts,
  });
  await a.app.listen({ port: PORT, host: '127.0.0.1' });
  // A pooled connection to the previous test's app (closed under it) is used up here, not by the CLI.
  for (let i = 0; i < 3; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (r) => r.text().then(() => r.ok),
      () => false,
    );
    if (ok) break;
  }
  return { ...a, home };
}

t.test('a simulated SMS reaches GET /api/inbox and the webhooks; diagnostics ok', async (t) => {
  const rx = await startReceiver(t);
  const a = await listening(t, { webhookUrls: [rx.url] });
  const home = a.home;
  await a.gateway.inbox.watcher.pollOnce(); // the first poll: an empty baseline
  const env = { SMS_GATEWAY_HOME: home, PATH: '/nonexistent' };
  const before = Math.floor(Date.now() / 1000) * 1000; // the phone's time has whole seconds
  const r = await runCli(['simulate', 'receive', '--from', '+15551230001', 'Door opened'], env);
  const after = Date.now();
  t.equal(r.code, 0, r.err);
  t.equal(r.out, 'Put SMS 1 from +15551230001 into the simulated inbox.\n');
  t.equal(r.err, '', 'no note in simulated mode');
  await a.gateway.inbox.watcher.pollOnce();

  const page = (await a.get('/api/inbox')).json();
  t.match(page.data, [{ id: /^in_/, from: '+15551230001', contact: null, body: 'Door opened', simSlot: null }]);
  const receivedAt = Date.parse(page.data[0].receivedAt);
  t.ok(receivedAt >= before && receivedAt <= after, 'received when the command ran');

  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  const event = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(
    rx.received[0]!.body,
    rx.received[0]!.headers as Record<string, string>,
  ) as {
    type: string;
    data: { from: string; body: string };
  };
  t.match(event, { type: 'sms.received', data: { from: '+15551230001', body: 'Door opened' } });

  const webhooks = (await a.get('/api/diagnostics')).json().data.checks.webhooks;
  t.equal(webhooks.status, 'ok');
  t.match(webhooks.value.inbox, { lastOk: true, consecutiveFailures: 0, received: 1 });
});

t.test('on a phone (termux-sms-send on PATH) it says the simulated inbox is not read', async (t) => {
  const bin = tempDir(t);
  const { symlinkSync } = await import('node:fs');
  symlinkSync('/bin/true', `${bin}/termux-sms-send`);
  const r = await runCli(['simulate', 'receive', '--from', '+1555', 'x'], { SMS_GATEWAY_HOME: tempDir(t), PATH: bin });
  t.equal(r.code, 0);
  t.match(r.err, /real mode here and reads the phone's inbox, not the simulated one/);
});

t.test("the running gateway's inbox watcher is off: says so and how to switch it on, exit 1", async (t) => {
  const a = await listening(t); // no webhook target, no SMS_GATEWAY_INBOX, no MQTT
  const r = await runCli(['simulate', 'receive', '--from', '+15551230001', 'Door opened'], {
    SMS_GATEWAY_HOME: a.home,
    PATH: '/nonexistent',
  });
  t.equal(r.code, 1, 'the SMS is in the file, but this gateway never shows it');
  t.equal(r.out, 'Put SMS 1 from +15551230001 into the simulated inbox.\n');
  t.equal(
    r.err,
    "sms-gateway: but the running gateway's inbox watcher is off, so it never reads this SMS (a watcher switched on later starts after it). " +
      `Switch it on: SMS_GATEWAY_INBOX=true in ${a.home}/.env and restart the gateway, or add a webhook target (\`sms-gateway webhook add <url>\`), or connect MQTT (SMS_GATEWAY_MQTT_URL); then simulate again.\n`,
  );
  t.equal((await a.get('/api/inbox')).statusCode, 503, 'inbox_disabled, as the line says');
});

t.test('no gateway running: a note that it reads the SMS only once it runs with its watcher on, exit 0', async (t) => {
  await holdPort8080(t); // nothing listens on 8080 meanwhile
  const home = tempDir(t);
  t.equal((await runCli(['key', 'rotate'], { SMS_GATEWAY_HOME: home })).code, 0, 'a home a gateway ran with');
  const r = await runCli(['simulate', 'receive', '--from', '+15551230001', 'x'], {
    SMS_GATEWAY_HOME: home,
    PATH: '/nonexistent',
  });
  t.equal(r.code, 0);
  t.equal(r.out, 'Put SMS 1 from +15551230001 into the simulated inbox.\n');
  t.match(r.err, /^sms-gateway: note: no gateway answers on http:\/\/127\.0\.0\.1:8080/);
});
