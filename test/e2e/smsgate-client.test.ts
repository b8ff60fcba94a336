// SMSGate's own npm client (android-sms-gateway 3.0.0) against the real gateway, as a new user
// coming from SMSGate tries it: `new Client('sms', key, http, 'http://127.0.0.1:8080')` with a
// fetch adapter; a send to two numbers followed to Sent, the same id again 409, webhooks for
// sms:sent and sms:received to a local receiver checked with SMSGate's signature recipe, a
// simulated SMS, the export, devices, health, logs, settings (read-only) and the curl checks.
import t from 'tap';
import { createHmac } from 'node:crypto';
import * as smsgate from 'android-sms-gateway';
import { holdPort8080, simulatedInboxGateway, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { fetchHttpClient, HttpError } from '../helpers/smsgate-fetch.js';
import { startReceiver, type Received } from '../fixtures/receiver.js';

// The package has no "type": "module": TypeScript reads its types as CommonJS (its default import
// typed as the whole module), while Node loads its ES module syntax as ESM (the default is the Client).
const Client = smsgate.default as unknown as (typeof smsgate.default)['default'];
const { ProcessState, WebHookEventType } = smsgate;

type Envelope = { id: string; webhookId: string; event: string; deviceId: string; payload: Record<string, unknown> };

/** SMSGate's recipe for receivers: hex HMAC-SHA256 of the raw body followed by X-Timestamp. */
const signatureOk = (r: Received, key: string) =>
  createHmac('sha256', key)
    .update(r.body + String(r.headers['x-timestamp']))
    .digest('hex') === r.headers['x-signature'];

/** The client's error (the adapter throws an HttpError for a status of 400 or more). */
async function failure(p: Promise<unknown>): Promise<HttpError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

t.test("SMSGate's npm client, unchanged, against the real gateway", async (t) => {
  await holdPort8080(t);
  const rx = await startReceiver(t);
  const { env, cli } = simulatedInboxGateway(t, 1);
  await startGateway(t, env);
  const key = cli('key', 'show').stdout.trim();
  const basic = { authorization: `Basic ${Buffer.from(`sms:${key}`).toString('base64')}` };

  // The issue's curl checks.
  const theirs = await httpGet('/health', basic);
  t.equal(theirs.status, 200);
  t.match(JSON.parse(theirs.body), { status: /^(pass|warn)$/, version: String, releaseId: Number, checks: Object });
  t.match(JSON.parse((await httpGet('/health')).body), { status: 'ok', mode: 'simulated' }, 'plain: the seed health');
  t.equal((await httpGet('/api/messages', basic)).status, 401, 'the native API takes no Basic');

  const http = fetchHttpClient(key);
  const client = new Client('sms', key, http, 'http://127.0.0.1:8080');

  const devices = await client.getDevices();
  t.equal(devices.length, 1, 'the phone is the one device');
  const deviceId = devices[0]!.id;
  t.match(devices[0], { id: String, name: String, createdAt: String, updatedAt: String, lastSeen: String });
  t.match(await client.getHealth(), { status: /^(pass|warn)$/, checks: { 'battery:level': Object } });
  // SMSGate's app serves its settings in snake_case (signing_key); the client's DeviceSettings type
  // says signingKey, which no SMSGate server sends: the gateway follows the app.
  const settings = (await client.getSettings()) as { webhooks?: { signing_key?: string } };
  const signingKey = settings.webhooks?.signing_key ?? '';
  t.ok(signingKey.length >= 16, 'GET /settings gives the signing key');

  // Webhooks to the receiver in the test: one for sms:sent, one for sms:received.
  const sent = await client.registerWebhook({ id: 'e2e-sent', url: `${rx.url}/sent`, event: WebHookEventType.SmsSent });
  t.match(sent, { id: 'e2e-sent', url: `${rx.url}/sent`, event: 'sms:sent', deviceId: null });
  await client.registerWebhook({ id: 'e2e-received', url: `${rx.url}/received`, event: WebHookEventType.SmsReceived });
  t.same(
    (await client.getWebhooks()).map((w) => [w.id, w.event]),
    [
      ['e2e-sent', 'sms:sent'],
      ['e2e-received', 'sms:received'],
    ],
  );

  // A send to two numbers (the client sends the deprecated `message` field), followed to Sent.
  const text = 'Hello from the SMSGate client';
  const queued = await client.send({ id: 'e2e-two', message: text, phoneNumbers: ['+15551230001', '+15551230002'] });
  t.match(queued, { id: 'e2e-two', state: /^(Pending|Processed|Sent)$/ });
  t.equal(queued.recipients.length, 2);
  const done = await waitFor(
    'the message Sent',
    async () => {
      const s = await client.getState('e2e-two');
      return s.state === ProcessState.Sent ? s : undefined;
    },
    30_000,
    250,
  );
  t.same(
    done.recipients.map((r) => [r.phoneNumber, r.state]),
    [
      ['+15551230001', 'Sent'],
      ['+15551230002', 'Sent'],
    ],
  );
  const again = await failure(client.send({ id: 'e2e-two', message: text, phoneNumbers: ['+15551230003'] }));
  t.equal(again.status, 409, 'the same id again is 409');
  t.match(JSON.parse(again.body), { message: String });

  // sms:sent: one event per recipient, SMSGate's message id as payload.messageId, signed.
  const sentEvents = await waitFor('two sms:sent events', () => {
    const got = rx.received.filter((r) => r.path.endsWith('/sent'));
    return got.length >= 2 ? got : undefined;
  });
  for (const r of sentEvents) {
    t.ok(signatureOk(r, signingKey), 'sms:sent signed with the signing key');
    t.match(JSON.parse(r.body) as Envelope, {
      webhookId: 'e2e-sent',
      event: 'sms:sent',
      deviceId,
      payload: { messageId: 'e2e-two', phoneNumber: /^\+1555123000[12]$/, sentAt: String },
    });
  }

  // The client's one option: POST /message?skipPhoneValidation=true, the id made by the gateway.
  const skipped = await client.send(
    { message: 'No check', phoneNumbers: ['+15551230004'] },
    { skipPhoneValidation: true },
  );
  t.match(skipped, { id: /^[A-Za-z0-9_-]{1,36}$/, recipients: [{ phoneNumber: '+15551230004' }] });
  t.match(http.calls.at(-1), {
    method: 'POST',
    url: 'http://127.0.0.1:8080/message?skipPhoneValidation=true',
    status: 202,
  });

  // A simulated SMS arrives (after the watcher's first poll, which sets the baseline).
  await waitFor('the first inbox poll', async () => {
    const d = await httpGet('/api/diagnostics', { authorization: `Bearer ${key}` });
    return JSON.parse(d.body).data.checks.webhooks.value.inbox?.lastOk ? true : undefined;
  });
  const put = cli('simulate', 'receive', '--from', '+15551230009', 'Garage door opened');
  t.equal(put.status, 0, put.stderr);
  const received = () => rx.received.filter((r) => r.path.endsWith('/received'));
  const first = await waitFor('sms:received', () => received()[0]);
  t.ok(signatureOk(first, signingKey), "X-Signature holds under SMSGate's recipe");
  t.notOk(signatureOk(first, `${signingKey}x`), 'and not under another key');
  const event = JSON.parse(first.body) as Envelope;
  t.match(event, {
    id: String,
    webhookId: 'e2e-received',
    event: 'sms:received',
    deviceId,
    payload: { message: 'Garage door opened', phoneNumber: '+15551230009', receivedAt: String },
  });

  // The export announces it again: a new event (a new id), the same SMS.
  const hour = 3600_000;
  await client.exportInbox({ deviceId, since: new Date(Date.now() - hour), until: new Date(Date.now() + hour) });
  const second = await waitFor('the exported sms:received', () => received()[1]);
  const exported = JSON.parse(second.body) as Envelope;
  t.not(exported.id, event.id, 'the export is a new event');
  t.match(exported.payload, { message: 'Garage door opened', phoneNumber: '+15551230009' });

  const logs = await client.getLogs(new Date(Date.now() - hour), new Date(Date.now() + hour));
  t.ok(Array.isArray(logs), 'GET /logs: the kept warnings and errors (none need be there)');

  // Settings are read-only: the .env file holds them.
  for (const write of [() => client.updateSettings({ messages: { limitValue: 5 } }), () => client.patchSettings({})]) {
    const refused = await failure(write());
    t.equal(refused.status, 405);
    t.match(JSON.parse(refused.body), { message: /\.env/ });
  }

  // deleteDevice: SMSGate's local server has no DELETE /devices/:id (its cloud server has); the
  // phone cannot be removed from itself. The least surprising answer is the one the app gives:
  // 404 for a route it does not serve, with the { message } the client's users read.
  const removed = await failure(client.deleteDevice(deviceId));
  t.equal(removed.status, 404, 'DELETE /devices/:id is 404, as on SMSGate’s local server');
  t.match(JSON.parse(removed.body), { message: /one device/ });
  t.equal((await client.getDevices()).length, 1, 'the device is still there');

  for (const id of ['e2e-sent', 'e2e-received']) await client.deleteWebhook(id);
  t.same(await client.getWebhooks(), [], 'both registrations deleted');
  t.ok(
    http.calls.every((c) => c.headers.Authorization === basic.authorization),
    'every call of the client used Basic sms:<key>',
  );
});
