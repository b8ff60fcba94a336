// A laptop without a phone: `sms-gateway simulate receive` puts an SMS into the simulated
// inbox; the gateway's watcher reads it (in place of termux-sms-list) into GET /api/inbox
// and the webhooks, and diagnostics stay ok (no inbox that cannot exist is polled).
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { simulatedSmsList } from '../../../src/device/simulated-inbox.js';
import { fakeClock, runCli, tempDir, testApp } from '../../helper.js';
import { startReceiver } from '../../fixtures/receiver.js';

t.test('usage errors exit 2', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t), PATH: '/nonexistent' };
  for (const args of [[], ['receive'], ['receive', 'text'], ['receive', '--from', '+1555'], ['receive', '--from', '+1', 'a', 'b'], ['send', '--from', '+1', 'x'], ['receive', '--from', ' ', 'x']]) {
    t.equal((await runCli(['simulate', ...args], env)).code, 2, args.join(' '));
  }
});

t.test('a simulated SMS reaches GET /api/inbox and the webhooks; diagnostics ok', async (t) => {
  const rx = await startReceiver(t);
  const home = tempDir(t);
  const a = await testApp(t, {
    home,
    clock: fakeClock(Date.now()),
    webhookUrls: [rx.url],
    inboxList: simulatedSmsList(home, () => 'UTC'),
  });
  await a.services.inbox.pollOnce(); // the first poll: an empty baseline
  const env = { SMS_GATEWAY_HOME: home, PATH: '/nonexistent' };
  const before = Math.floor(Date.now() / 1000) * 1000; // the phone's time has whole seconds
  const r = await runCli(['simulate', 'receive', '--from', '+15551230001', 'Door opened'], env);
  const after = Date.now();
  t.equal(r.code, 0, r.err);
  t.equal(r.out, 'Put SMS 1 from +15551230001 into the simulated inbox.\n');
  t.equal(r.err, '', 'no note in simulated mode');
  await a.services.inbox.pollOnce();

  const page = (await a.get('/api/inbox')).json();
  t.match(page.data, [{ id: /^in_/, from: '+15551230001', contact: null, body: 'Door opened', simSlot: null }]);
  const receivedAt = Date.parse(page.data[0].receivedAt);
  t.ok(receivedAt >= before && receivedAt <= after, 'received when the command ran');

  await a.services.delivery.runDue();
  t.equal(rx.received.length, 1);
  const event = new Webhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw').verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>) as {
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
