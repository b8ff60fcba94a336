// Replies end to end, as a user tries them: the real gateway in simulated mode, a send with
// tags, `simulate receive` putting the reply into the simulated inbox, and the sms.received
// event carrying inReplyTo with those tags, at a webhook target and on a real Mosquitto
// (the MQTT part is left out, and says so, where Mosquitto is not installed). The inbox's own cadence is set to
// 10 minutes, far beyond this test's 30 s wait: the reply can only be seen in time through
// the quick reading after a hand-off (every 5 s for 3 minutes). No duration is asserted.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { holdPort8080, simulatedInboxGateway, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver } from '../fixtures/receiver.js';
import { listen, noBroker, startBroker } from '../mqtt/broker.js';

t.test('send with tags, simulate the reply, inReplyTo in the webhook event and on MQTT', async (t) => {
  await holdPort8080(t);
  const rx = await startReceiver(t);
  const broker = noBroker ? undefined : await startBroker(t);
  const heard = broker ? (await listen(t, broker.url, ['sms-gateway/+/events/sms.received'])).heard : undefined;
  const { env, cli } = simulatedInboxGateway(t, 600, broker ? { SMS_GATEWAY_MQTT_URL: broker.url } : {});
  const caller = '127.0.0.9';
  await startGateway(t, env, caller);
  const key = cli('key', 'show').stdout.trim();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const api = async (path: string, method = 'GET', body?: unknown) => {
    const res = await httpGet(path, headers, caller, method, body === undefined ? undefined : JSON.stringify(body));
    return {
      status: res.status,
      json: JSON.parse(res.body) as { data: Record<string, unknown> & { id: string; status: string } },
    };
  };

  await waitFor(
    'the first inbox poll',
    async () =>
      ((await api('/api/diagnostics')).json.data.checks as { webhooks: { value: { inbox?: { lastOk?: unknown } } } })
        .webhooks.value.inbox?.lastOk ?? undefined,
  );
  t.equal((await api('/api/webhooks', 'POST', { url: rx.url })).status, 201);

  const sent = await api('/api/messages', 'POST', {
    to: '+1 555 0001',
    message: 'Alarm in the garage. Reply 1 to disarm',
    tags: { alarm: 'garage' },
  });
  t.equal(sent.status, 202);
  const id = (sent.json.data as unknown as { id: string }[])[0]!.id;
  await waitFor('the message sent', async () =>
    (await api(`/api/messages/${id}`)).json.data.status === 'sent' ? true : undefined,
  );

  t.equal(cli('simulate', 'receive', '--from', '+15550001', '1').status, 0);
  const wh = new Webhook(cli('webhook', 'secret').stdout.trim());
  const event = await waitFor('sms.received at the target', () => {
    const got = rx.received.map(
      (r) =>
        wh.verify(r.body, r.headers as Record<string, string>) as {
          type: string;
          data: { body: string; inReplyTo: unknown };
        },
    );
    return got.find((e) => e.type === 'sms.received');
  });
  t.same(event.data.inReplyTo, { id, tags: { alarm: 'garage' } }, 'the reply names the tagged message');
  const inbox = await api('/api/inbox');
  t.same(
    (inbox.json.data as unknown as { inReplyTo: unknown }[])[0]!.inReplyTo,
    { id, tags: { alarm: 'garage' } },
    'GET /api/inbox too',
  );
  if (!heard) {
    t.comment(`MQTT not tried: ${String(noBroker)}`);
    return;
  }
  const published = await waitFor('sms.received on MQTT', () =>
    heard.find((h) => h.topic.endsWith('/events/sms.received')),
  );
  t.same(
    (JSON.parse(published.payload) as { data: { inReplyTo: unknown } }).data.inReplyTo,
    { id, tags: { alarm: 'garage' } },
    'on MQTT',
  );
});
