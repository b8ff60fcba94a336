// Events end to end: the real gateway, a fake phone on PATH and a local receiver. A sent
// text produces a verified sms.sent event (after sent-box confirmation), a new inbox
// message produces sms.received, and a receiver that is down for a while gets every
// event later, with the same webhook-id.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { Webhook } from 'standardwebhooks';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';
import { startReceiver, type Received } from '../fixtures/receiver.js';

t.test('sms.sent, sms.received, and a receiver that was down', async (t) => {
  await holdPort8080(t);
  let down = false;
  const rx = await startReceiver(t, () => (down ? 503 : 200));
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const store = [
    {
      threadid: 1,
      type: 'inbox',
      read: true,
      address: '+4915100000001',
      number: '+4915100000001',
      received: '2026-01-01 10:00:00',
      body: 'old, never replayed',
      _id: 5,
    },
    {
      threadid: 2,
      type: 'sent',
      read: true,
      address: '+4915112345678',
      number: '+4915112345678',
      received: null,
      body: 'Hello receiver',
      _id: 6,
    },
  ];
  fake.output('termux-sms-list', JSON.stringify(store));
  const env: NodeJS.ProcessEnv = {
    ...fake.env,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_WEBHOOK_URLS: rx.url,
    SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
  };
  const caller = '127.0.0.7';
  const gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const secret = spawnSync(process.execPath, [CLI, 'webhook', 'secret'], { env, encoding: 'utf8' }).stdout.trim();
  t.match(secret, /^whsec_/);
  const wh = new Webhook(secret);
  const events = () =>
    rx.received.map((r: Received) => ({
      r,
      e: wh.verify(r.body, r.headers as Record<string, string>) as { type: string; data: Record<string, unknown> },
    }));
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };

  const sent = await httpGet(
    '/api/sms/send',
    headers,
    caller,
    'POST',
    JSON.stringify({ to: '+49 151 1234 5678', message: 'Hello receiver' }),
  );
  t.equal(sent.status, 200, sent.body);
  const id = JSON.parse(sent.body).messageId;
  const sentEvent = await waitFor('sms.sent', () => events().find((x) => x.e.type === 'sms.sent'), 40_000);
  t.match(sentEvent.e.data, {
    id,
    status: 'sent',
    reason: null,
    body: 'Hello receiver',
    to: '+49 151 1234 5678',
    billedSegments: 1,
  });

  // A new text arrives on the phone.
  fake.output(
    'termux-sms-list',
    JSON.stringify([
      ...store,
      {
        threadid: 3,
        type: 'inbox',
        read: false,
        address: '+4915199999999',
        number: '+4915199999999',
        received: '2026-11-21 10:30:00',
        body: 'Ping from a friend',
        _id: 7,
      },
    ]),
  );
  const received = await waitFor('sms.received', () => events().find((x) => x.e.type === 'sms.received'), 40_000);
  t.match(received.e.data, { smsId: 7, from: '+4915199999999', body: 'Ping from a friend', simSlot: null });
  t.notOk(
    events().some((x) => x.e.data.body === 'old, never replayed'),
    'old inbox messages are not replayed',
  );

  // The receiver goes down; a failed send's event waits and arrives once it is back.
  down = true;
  fake.mode('termux-sms-send', 'fail');
  await sleep(1100);
  const failed = await httpGet(
    '/api/sms/send',
    headers,
    caller,
    'POST',
    JSON.stringify({ to: '12345', message: 'will fail' }),
  );
  t.equal(failed.status, 502);
  const firstTry = await waitFor(
    'a refused delivery',
    () => rx.received.find((r) => r.body.includes('sms.failed')),
    40_000,
  );
  down = false;
  const delivered = await waitFor(
    'the retried sms.failed',
    () => {
      const tries = rx.received.filter((r) => r.body.includes('sms.failed'));
      return tries.length >= 2 ? tries : undefined;
    },
    40_000,
  );
  t.equal(delivered[1]!.headers['webhook-id'], firstTry.headers['webhook-id'], 'the retry kept its webhook-id');
  t.equal(events().filter((x) => x.e.type === 'sms.failed').length, 2, 'two tries, both signed');
  await sleep(1100); // request lines are written in batches, at most a second late
  t.notMatch(gw.output(), /Hello receiver|Ping from a friend|will fail/, 'no message body in the log');
  t.notMatch(gw.output(), /whsec_|sk_local_/, 'no secret in the log');
});
