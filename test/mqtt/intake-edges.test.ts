// The MQTT intake at its edges, against a real Mosquitto: a QoS 0 publish is taken too; a
// message the gateway cannot keep (the database refuses writes) is not acknowledged, so the
// broker gives it again and it is queued once when the disk allows; invalid UTF-8 is
// refused, never sent as U+FFFD; a phone with sending switched off takes no share of the
// shared topic; a stop leaves the shared subscription first.
import t, { type Test } from 'tap';
import mqtt from 'mqtt';
import { testApp } from '../helpers/test-app.js';
import { listen, noBroker, startBroker, gatewaySettings as settings, waitFor } from './broker.js';

async function mqttApp(t: Test, url: string, smsEnabled = true) {
  const app = await testApp(t, {
    runtime: { smsEnabled },
    mqtt: { settings: settings(url), gatewayId: 'gw1', backoffMs: () => 100 },
  });
  app.gateway.mqtt!.start();
  await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
  const pub = await mqtt.connectAsync(url, { protocolVersion: 5 });
  t.teardown(() => pub.endAsync(true));
  return { ...app, pub };
}

t.test('a QoS 0 publish is taken as well', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const app = await mqttApp(t, broker.url);
  await app.pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', message: 'qos zero' }), {
    qos: 0,
  });
  await waitFor(() => app.gateway.sending.stats.allTime().accepted === 1, 'queued');
});

t.test(
  'the database refuses writes: no PUBACK, given again, queued once when the disk allows',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const app = await mqttApp(t, broker.url);
    const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
    app.db.pragma('query_only = ON'); // every write fails as on a full disk
    await app.pub.publishAsync(
      'sms-gateway/gw1/send',
      JSON.stringify({ to: '+15551239999', message: 'keep me', id: 'disk-1' }),
      { qos: 1 },
    );
    // The reconnect delay is on the app's fake clock: move it on while waiting.
    await waitFor(() => {
      app.clock.advance(1000);
      return app.gateway.mqtt!.bridge.health().reconnects >= 2;
    }, 'dropped and reconnected, message not kept');
    t.equal(app.gateway.sending.stats.allTime().accepted, 0, 'nothing queued while the disk refuses');
    app.db.pragma('query_only = OFF');
    await waitFor(() => {
      app.clock.advance(1000);
      return app.gateway.sending.stats.allTime().accepted === 1;
    }, 'given again and queued once the disk allows');
    await new Promise((r) => setTimeout(r, 300));
    t.equal(app.gateway.sending.stats.allTime().accepted, 1, 'exactly once');
    t.equal(heard.length, 0, 'not answered as refused: it was kept in the end');
  },
);

t.test('invalid UTF-8 on a notify topic is refused, never sent', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const app = await mqttApp(t, broker.url);
  const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
  await app.pub.publishAsync('sms-gateway/gw1/notify/alice', Buffer.from([0x48, 0xff, 0xfe, 0x49]), { qos: 1 });
  await waitFor(() => heard.length === 1, 'an answer');
  t.match(JSON.parse(heard[0]!.payload), {
    error: { code: 'invalid_request', message: /not valid UTF-8/ },
    topic: 'sms-gateway/gw1/notify/alice',
  });
  t.equal(app.gateway.sending.stats.allTime().accepted, 0);
});

t.test(
  'sending switched off: no share of the shared topic; its own topic answers sms_disabled',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const off = await mqttApp(t, broker.url, false);
    const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
    // A second subscriber in the same share group stands for a phone that sends.
    const other = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => other.endAsync(true));
    const got: string[] = [];
    other.on('message', (_topic, payload) => got.push(payload.toString()));
    await other.subscribeAsync('$share/sms-gateway/sms-gateway/send', { qos: 1 });
    for (let i = 0; i < 6; i++)
      await off.pub.publishAsync('sms-gateway/send', JSON.stringify({ to: '+15551239999', message: `shared ${i}` }), {
        qos: 1,
      });
    await waitFor(() => got.length === 6, 'all six to the phone that sends');
    await off.pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', message: 'direct' }), {
      qos: 1,
    });
    await waitFor(() => heard.length === 1, 'an answer');
    t.match(JSON.parse(heard[0]!.payload), { error: { code: 'sms_disabled' } });
    t.equal(off.gateway.sending.stats.allTime().accepted, 0);
  },
);

t.test(
  'a stop leaves the shared subscription: the other phone gets every message meanwhile',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const app = await mqttApp(t, broker.url);
    const other = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => other.endAsync(true));
    const got: string[] = [];
    other.on('message', (_topic, payload) => got.push(payload.toString()));
    await other.subscribeAsync('$share/sms-gateway/sms-gateway/send', { qos: 1 });
    await app.gateway.mqtt!.stop();
    for (let i = 0; i < 6; i++)
      await app.pub.publishAsync(
        'sms-gateway/send',
        JSON.stringify({ to: '+15551239999', message: `while away ${i}` }),
        { qos: 1 },
      );
    await waitFor(() => got.length === 6, 'all six to the phone still there');
  },
);
