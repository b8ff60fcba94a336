// Retained send messages are never sent, against a real Mosquitto that keeps its retained
// messages and sessions across a restart: a retained request already on the send topic
// when the gateway starts, then a broker restart (the gateway reconnects and subscribes
// again): 0 records, nothing handed off, nothing on the errors topic (the gateway
// subscribes with retain handling 2, so the broker never gives it). A retained publish
// while the gateway is connected reaches it with the retain flag (retain-as-published):
// answered retained_refused on the errors topic, acknowledged, never queued.
import t, { type Test } from 'tap';
import mqtt from 'mqtt';
import { setTimeout as sleep } from 'node:timers/promises';
import { testApp } from '../helpers/test-app.js';
import { listen, noBroker, startBroker, gatewaySettings as settings, waitFor } from './broker.js';

async function publisher(t: Test, url: string) {
  const pub = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  t.teardown(() => pub.endAsync(true));
  return pub;
}

t.test('a retained request before the start, then a broker restart: never queued', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t, ['127.0.0.1'], { persist: true });
  const pub = await publisher(t, broker.url);
  const send = JSON.stringify({ to: '+15551239999', message: 'retained', id: 'r-1' });
  await pub.publishAsync('sms-gateway/gw1/send', send, { qos: 1, retain: true });
  await pub.publishAsync('sms-gateway/gw1/notify/alice', 'retained notify', { qos: 1, retain: true });
  await pub.endAsync(true);

  const app = await testApp(t, { mqtt: { settings: settings(broker.url), gatewayId: 'gw1', backoffMs: () => 100 } });
  app.gateway.mqtt!.start();
  await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
  await sleep(500);
  t.equal(app.gateway.sending.messages.count(), 0, 'first start: nothing recorded');

  await broker.stop();
  await broker.start();
  const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
  // The reconnect delay is on the app's fake clock: move it on while waiting.
  await waitFor(() => {
    app.clock.advance(1000);
    return app.gateway.mqtt!.bridge.connected();
  }, 'reconnected after the broker restart');
  await sleep(500);
  t.equal(app.gateway.sending.messages.count(), 0, 'after the restart: nothing recorded');
  await app.gateway.sending.lane.runDue();
  t.equal(app.handoffs.length, 0, 'nothing handed off');
  t.same(heard, [], 'never given, so nothing to answer');

  // The retained message is still on the broker (it is not the gateway's to delete).
  const check = await publisher(t, broker.url);
  const seen: string[] = [];
  check.on('message', (_topic, payload, packet) => packet.retain && seen.push(payload.toString()));
  await check.subscribeAsync('sms-gateway/gw1/send', { qos: 1 });
  await waitFor(() => seen.length === 1, 'the retained message on the broker');
  t.equal(seen[0], send);
});

t.test(
  'a retained publish while connected: retained_refused on the errors topic, never queued',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const app = await testApp(t, { mqtt: { settings: settings(broker.url), gatewayId: 'gw1', backoffMs: () => 100 } });
    app.gateway.mqtt!.start();
    await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
    await sleep(200); // subscribed
    const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
    const pub = await publisher(t, broker.url);
    await pub.publishAsync(
      'sms-gateway/gw1/send',
      JSON.stringify({ to: '+15551239999', message: 'live retained', id: 'r-2' }),
      { qos: 1, retain: true },
    );
    await pub.publishAsync('sms-gateway/gw1/notify/alice', 'live retained notify', { qos: 1, retain: true });
    await waitFor(() => heard.length === 2, 'two answers');
    const answers = heard.map((h) => JSON.parse(h.payload));
    t.match(answers, [
      {
        success: false,
        smsSent: false,
        error: { code: 'retained_refused', message: /retain/ },
        topic: 'sms-gateway/gw1/send',
        id: 'r-2',
      },
      { error: { code: 'retained_refused' }, topic: 'sms-gateway/gw1/notify/alice' },
    ]);
    t.equal(app.gateway.sending.messages.count(), 0, 'nothing recorded');
    await pub.publishAsync(
      'sms-gateway/gw1/send',
      JSON.stringify({ to: '+15551239999', message: 'not retained', id: 'r-3' }),
      { qos: 1 },
    );
    await waitFor(() => app.gateway.sending.messages.count() === 1, 'the same request without the flag is queued');
    await sleep(300);
    t.equal(heard.length, 2, 'and not answered as refused');
  },
);
