// The MQTT bridge in process (testApp: fake clock, recording sender) against a real
// Mosquitto: availability, discovery, sends over the topics, errors, events, the broker
// going down and coming back, removed contacts.
import t, { type Test } from 'tap';
import mqtt from 'mqtt';
import type { MqttSettings } from '../../src/core/mqtt-settings.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { testApp } from '../helpers/test-app.js';
import { listen, noBroker, startBroker, waitFor, type Heard } from './broker.js';

const settings = (url: string, over: Partial<MqttSettings> = {}): MqttSettings => ({
  url,
  username: undefined,
  password: undefined,
  prefix: 'sms-gateway',
  gatewayId: 'gw1',
  contacts: [
    { name: 'Alice', slug: 'alice', number: '+15551230001' },
    { name: 'Bob', slug: 'bob', number: '+15551230002' },
  ],
  discovery: true,
  shareSecret: undefined,
  ...over,
});

const last = (heard: Heard[], topic: string) => heard.filter((h) => h.topic === topic).at(-1);

/** A gateway with MQTT started and seen online. */
async function mqttApp(t: Test, url: string, over: Partial<MqttSettings> = {}, home?: string) {
  const app = await testApp(t, {
    ...(home ? { home } : {}),
    mqtt: { settings: settings(url, over), gatewayId: 'gw1', backoffMs: () => 100 },
  });
  const watch = await listen(t, url, ['sms-gateway/gw1/availability']);
  app.gateway.mqtt!.start();
  await waitFor(() => last(watch.heard, 'sms-gateway/gw1/availability')?.payload === 'online', 'online');
  await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
  return app;
}

/** Hands off everything due (the fake clock moves past the spacing each round). */
async function drain(app: Awaited<ReturnType<typeof testApp>>) {
  for (let i = 0; i < 20; i++) {
    app.clock.advance(2000);
    await app.gateway.sending.lane.runDue();
  }
}

t.test('availability, discovery configs Home Assistant accepts, no API key anywhere', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const app = await mqttApp(t, broker.url);
  const { heard } = await listen(t, broker.url, ['homeassistant/#', 'sms-gateway/#']);
  await waitFor(() => heard.filter((h) => h.topic.startsWith('homeassistant/')).length >= 10, 'ten retained configs');
  t.equal(last(heard, 'sms-gateway/gw1/availability')?.payload, 'online');
  t.ok(last(heard, 'sms-gateway/gw1/availability')?.retain, 'availability is retained');
  const configs = heard.filter((h) => h.topic.startsWith('homeassistant/'));
  t.same(configs.map((c) => c.topic).sort(), [
    'homeassistant/event/sms_gateway_gw1/received/config',
    'homeassistant/notify/sms_gateway_gw1/alice/config',
    'homeassistant/notify/sms_gateway_gw1/bob/config',
    ...['battery', 'failed_today', 'last_received', 'queue_waiting', 'sent_today', 'status', 'wifi_signal'].map(
      (s) => `homeassistant/sensor/sms_gateway_gw1/${s}/config`,
    ),
  ]);
  const ids = new Set<string>();
  for (const c of configs) {
    t.ok(c.retain, `${c.topic} retained`);
    const cfg = JSON.parse(c.payload);
    t.type(cfg.unique_id, 'string', `${c.topic} unique_id`);
    ids.add(cfg.unique_id);
    t.ok(
      typeof cfg.state_topic === 'string' || typeof cfg.command_topic === 'string',
      `${c.topic} state or command topic`,
    );
    t.same(cfg.device.identifiers, ['sms_gateway_gw1']);
    t.equal(cfg.availability[0].topic, 'sms-gateway/gw1/availability');
    if (c.topic.includes('/notify/')) t.match(cfg.command_topic, /^sms-gateway\/gw1\/notify\/(alice|bob)$/);
  }
  t.equal(ids.size, configs.length, 'unique ids are unique');
  await waitFor(() => last(heard, 'sms-gateway/gw1/state') !== undefined, 'state');
  const state = JSON.parse(last(heard, 'sms-gateway/gw1/state')!.payload);
  t.match(state, { sentToday: 0, failedToday: 0, waiting: 0 });
  for (const h of heard) t.notOk(h.payload.includes(app.key), `no API key on ${h.topic}`);
  const d = await app.get('/api/diagnostics');
  t.match(d.json().data.checks.mqtt, {
    status: 'ok',
    value: { enabled: true, state: 'connected', broker: broker.url },
  });
});

t.test(
  'a send over the topic is handed off once; the same id again is not; the shared topic works too',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const app = await mqttApp(t, broker.url);
    const { heard } = await listen(t, broker.url, [
      'sms-gateway/gw1/errors',
      'sms-gateway/gw1/events/#',
      'sms-gateway/gw1/state',
    ]);
    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    const body = JSON.stringify({ to: '+15551239999', message: 'over mqtt', id: 'job-1' });
    await pub.publishAsync('sms-gateway/gw1/send', body, { qos: 1 });
    await waitFor(() => app.gateway.sending.stats.allTime().accepted === 1, 'the queue commit');
    await pub.publishAsync('sms-gateway/gw1/send', body, { qos: 1 });
    await pub.publishAsync('sms-gateway/send', JSON.stringify({ to: '+15551238888', message: 'shared' }), { qos: 1 });
    await waitFor(() => app.gateway.sending.stats.allTime().accepted === 2, 'the shared one');
    await drain(app);
    t.same(app.handoffs.map((h) => [h.number, h.text]).sort(), [
      ['+15551238888', 'shared'],
      ['+15551239999', 'over mqtt'],
    ]);
    t.equal(heard.filter((h) => h.topic.endsWith('/errors')).length, 0, 'nothing refused');
    await waitFor(
      () => heard.filter((h) => h.topic === 'sms-gateway/gw1/events/sms.sent').length === 2,
      'two sms.sent events',
    );
    const ev = JSON.parse(heard.find((h) => h.topic === 'sms-gateway/gw1/events/sms.sent')!.payload);
    t.match(ev, { type: 'sms.sent', id: /^evt_/, data: { status: 'sent', sourceIp: 'mqtt' } });
    t.notOk(heard.find((h) => h.topic.includes('/events/'))!.retain, 'events are not retained');
    t.equal(heard.find((h) => h.topic.includes('/events/'))!.qos, 1, 'events are published at QoS 1');
    await waitFor(
      () => JSON.parse(last(heard, 'sms-gateway/gw1/state')?.payload ?? '{}').sentToday === 2,
      'state follows the events',
    );
  },
);

t.test('invalid payloads are answered on the errors topic and never sent', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const app = await mqttApp(t, broker.url);
  const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/errors']);
  const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  t.teardown(() => pub.endAsync(true));
  await pub.publishAsync('sms-gateway/gw1/send', 'not json', { qos: 1 });
  await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', id: 'no-text' }), { qos: 1 });
  await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: 'nobody', message: 'x', id: 'bad-number' }), {
    qos: 1,
  });
  await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', message: 'x', extra: 1 }), {
    qos: 1,
  });
  await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', message: 'first', id: 'k' }), {
    qos: 1,
  });
  await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551239999', message: 'other', id: 'k' }), {
    qos: 1,
  });
  await pub.publishAsync('sms-gateway/gw1/notify/carol', 'who?', { qos: 1 });
  await waitFor(() => heard.length === 6, 'six answers');
  const answers = heard.map((h) => JSON.parse(h.payload));
  for (const a of answers)
    t.match(a, {
      success: false,
      smsSent: false,
      error: { code: /^(invalid_request|message_too_long)$/, message: String },
    });
  t.match(answers[0], { error: { message: /not valid JSON/ }, topic: 'sms-gateway/gw1/send' });
  t.match(answers[1], { id: 'no-text', error: { message: /payload\.message/ } });
  t.match(answers[2], { id: 'bad-number' });
  t.match(answers[3], { error: { message: /extra/ } });
  t.match(answers[4], { id: 'k', error: { message: /Idempotency-Key reused with a different request/ } });
  t.match(answers[5], { topic: 'sms-gateway/gw1/notify/carol', error: { message: /no contact "carol"/ } });
  await drain(app);
  t.same(
    app.handoffs.map((h) => h.text),
    ['first'],
    'only the valid one went out',
  );
});

t.test('a notify entity turns into a queued send to its contact', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const app = await mqttApp(t, broker.url);
  const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  t.teardown(() => pub.endAsync(true));
  await pub.publishAsync('sms-gateway/gw1/notify/bob', 'The alarm went off', { qos: 1 });
  await waitFor(() => app.gateway.sending.stats.allTime().accepted === 1, 'queued');
  await drain(app);
  t.same(
    app.handoffs.map((h) => [h.number, h.text]),
    [['+15551230002', 'The alarm went off']],
  );
});

t.test(
  'a removed contact gets an empty retained config; discovery off clears everything',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const first = await mqttApp(t, broker.url);
    const home = first.home;
    await first.gateway.mqtt!.stop();
    const second = await mqttApp(
      t,
      broker.url,
      { contacts: [{ name: 'Alice', slug: 'alice', number: '+15551230001' }] },
      home,
    );
    void second;
    const retained = await listen(t, broker.url, ['homeassistant/#']);
    await waitFor(() => retained.heard.length >= 8, 'the retained configs');
    // A marker published after the subscription arrives after every retained message: then
    // a config of bob's, had it stayed, would have been heard.
    const marker = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    await marker.publishAsync('homeassistant/zz-test-marker', 'end', { qos: 1 });
    await marker.endAsync(true);
    await waitFor(() => retained.heard.some((h) => h.topic === 'homeassistant/zz-test-marker'), 'the marker');
    t.notOk(
      retained.heard.some((h) => h.topic.includes('/notify/sms_gateway_gw1/bob/')),
      'bob is gone from the broker',
    );
    t.ok(
      retained.heard.some((h) => h.topic === 'homeassistant/notify/sms_gateway_gw1/alice/config'),
      'alice stays',
    );
    await second.gateway.mqtt!.stop();
    await mqttApp(t, broker.url, { discovery: false }, home);
    const after = await listen(t, broker.url, ['homeassistant/#', 'sms-gateway/gw1/availability']);
    await waitFor(() => after.heard.some((h) => h.topic.endsWith('availability')), 'availability');
    t.same(
      after.heard.filter((h) => h.topic.startsWith('homeassistant/') && h.payload !== ''),
      [],
      'no retained config is left',
    );
  },
);

t.test(
  'the broker down and back: the gateway reconnects; HTTP sending is never held up',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const app = await mqttApp(t, broker.url.replace('//', '//gw:url-secret@'), {
      username: 'gw',
      password: 'env-secret',
    });
    await broker.stop();
    await waitFor(() => !app.gateway.mqtt!.bridge.connected(), 'the drop to be seen');
    const res = await app.queue({ to: '+15551237777', message: 'while the broker is down' });
    t.equal(res.statusCode, 202);
    const sync = await app.send({ to: '+15551236666', message: 'sync while down' });
    t.equal(sync.statusCode, 200, 'a synchronous send goes out');
    const d = await app.get('/api/diagnostics');
    t.match(d.json().data.checks.mqtt, {
      status: 'degraded',
      value: { state: 'reconnecting', lastError: String },
      hint: /Not connected/,
    });
    t.notMatch(JSON.stringify(d.json().data.checks.mqtt), /secret|sk_local/, 'no credentials in diagnostics');
    await broker.start();
    const watch = await listen(t, broker.url, ['sms-gateway/gw1/availability']);
    // The reconnect delay is on the app's fake clock: move it on while waiting.
    await waitFor(() => {
      app.clock.advance(1000);
      return app.gateway.mqtt!.bridge.connected();
    }, 'the reconnect');
    await waitFor(() => last(watch.heard, 'sms-gateway/gw1/availability')?.payload === 'online', 'online again');
    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    await pub.publishAsync('sms-gateway/gw1/send', JSON.stringify({ to: '+15551235555', message: 'after' }), {
      qos: 1,
    });
    await waitFor(() => app.gateway.sending.stats.allTime().accepted === 3, 'the send after the reconnect');
    const again = await app.get('/api/diagnostics');
    t.match(again.json().data.checks.mqtt, { status: 'ok', value: { state: 'connected', reconnects: Number } });
  },
);

t.test('a broker that never answers holds up nothing; the check says so', { skip: noBroker }, async (t) => {
  const app = await testApp(t, {
    mqtt: { settings: settings('mqtt://127.0.0.1:1'), gatewayId: 'gw1', backoffMs: () => 100 },
  });
  app.gateway.mqtt!.start();
  await waitFor(() => app.gateway.mqtt!.health().lastError !== null, 'the first failure');
  const res = await app.queue({ to: '+15551237777', message: 'no broker' });
  t.equal(res.statusCode, 202);
  const d = await app.get('/api/diagnostics');
  t.match(d.json().data.checks.mqtt, { status: 'degraded', value: { lastError: /ECONNREFUSED/ } });
});

t.test(
  'with MQTT and no webhook target the inbox is read: sms.received and the last received SMS',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const fake = fakeTermux(t, ['termux-sms-list']);
    const inbox = (list: { id: number; body: string }[]) =>
      fake.output(
        'termux-sms-list',
        JSON.stringify(
          list.map((m) => ({
            threadid: 1,
            type: 'inbox',
            read: false,
            address: '+4915112345678',
            number: '+4915112345678',
            received: '2026-11-21 12:00:00',
            body: m.body,
            _id: m.id,
          })),
        ),
      );
    inbox([{ id: 1, body: 'old' }]);
    const app = await testApp(t, {
      deviceEnv: fake.env,
      inboxPollMs: 15_000,
      mqtt: { settings: settings(broker.url), gatewayId: 'gw1', backoffMs: () => 100 },
    });
    t.ok(app.gateway.inbox.watcher, 'the watcher exists without webhook targets');
    const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/events/#', 'sms-gateway/gw1/last-received']);
    app.gateway.mqtt!.start();
    await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
    await app.gateway.inbox.watcher!.pollOnce(); // the baseline
    inbox([
      { id: 2, body: 'Door open' },
      { id: 1, body: 'old' },
    ]);
    app.clock.advance(1000);
    await app.gateway.inbox.watcher!.pollOnce();
    await waitFor(() => heard.some((h) => h.topic.endsWith('/last-received')), 'the last received SMS');
    const ev = heard.filter((h) => h.topic === 'sms-gateway/gw1/events/sms.received').map((h) => JSON.parse(h.payload));
    t.match(ev, [{ type: 'sms.received', data: { from: '+4915112345678', body: 'Door open' } }], 'only the new one');
    const later = await listen(t, broker.url, ['sms-gateway/gw1/last-received']);
    await waitFor(() => later.heard.length > 0, 'the retained last received SMS');
    t.ok(later.heard[0]!.retain, 'retained for a subscriber that comes later');
    t.match(JSON.parse(later.heard[0]!.payload), { sender: '+4915112345678', body: 'Door open', receivedAt: String });
  },
);
