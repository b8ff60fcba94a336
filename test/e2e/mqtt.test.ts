// End to end with the real `sms-gateway start` process and a real Mosquitto: the id made
// at the first start and kept, `online` retained, a send over the topic handed to
// termux-sms-send once, kill -9 makes the broker publish the `offline` will, and the
// gateway started again is the same device.
import t from 'tap';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import mqtt from 'mqtt';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/paths.js';
import { listen, noBroker, startBroker, waitFor } from '../mqtt/broker.js';

t.test('availability and will, a send over the topic, the same id after a restart', { skip: noBroker }, async (t) => {
  await holdPort8080(t);
  const broker = await startBroker(t);
  const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
  const home = tempDir(t);
  const env = {
    ...fake.env,
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MQTT_URL: broker.url,
    SMS_GATEWAY_MQTT_CONTACTS: 'Alice:+15551230001',
  };
  const { heard } = await listen(t, broker.url, ['sms-gateway/+/availability', 'sms-gateway/+/events/#']);
  const gw = await startGateway(t, env, '127.0.0.51');
  const id = readFileSync(join(home, 'gateway-id'), 'utf8').trim();
  t.match(id, /^gw-[a-z2-9]{10}$/, 'an id made at the first start');
  t.equal(statSync(join(home, 'gateway-id')).mode & 0o777, 0o600, 'kept owner-only');
  const availability = () => heard.filter((h) => h.topic === `sms-gateway/${id}/availability`).at(-1)?.payload;
  await waitFor(() => availability() === 'online', 'online');

  const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  t.teardown(() => pub.endAsync(true));
  await pub.publishAsync(
    `sms-gateway/${id}/send`,
    JSON.stringify({ to: '+15551239999', message: 'e2e over mqtt', id: 'e2e-1' }),
    { qos: 1 },
  );
  await waitFor(() => heard.some((h) => h.topic === `sms-gateway/${id}/events/sms.sent`), 'the sms.sent event');
  await pub.publishAsync(
    `sms-gateway/${id}/send`,
    JSON.stringify({ to: '+15551239999', message: 'e2e over mqtt', id: 'e2e-1' }),
    { qos: 1 },
  );
  // A marker after the repeat: once it is sent, the repeat has been dealt with.
  await pub.publishAsync(`sms-gateway/${id}/send`, JSON.stringify({ to: '+15551239998', message: 'marker' }), {
    qos: 1,
  });
  await waitFor(
    () => heard.filter((h) => h.topic === `sms-gateway/${id}/events/sms.sent`).length === 2,
    'the marker sent',
    20_000,
  );
  const calls = () => fake.calls('termux-sms-send').map((c) => c.stdin.toString());
  t.same(calls(), ['e2e over mqtt', 'marker'], 'the repeated id was not handed to termux-sms-send again');

  gw.proc.kill('SIGKILL');
  await gw.exited;
  await waitFor(() => availability() === 'offline', 'the will');
  const retained = await listen(t, broker.url, [`sms-gateway/${id}/availability`]);
  await waitFor(() => retained.heard.length > 0, 'the retained availability');
  t.same(
    retained.heard.map((h) => [h.payload, h.retain]),
    [['offline', true]],
    'the broker keeps offline (retained)',
  );

  await startGateway(t, env, '127.0.0.51');
  t.equal(readFileSync(join(home, 'gateway-id'), 'utf8').trim(), id, 'the same id after a restart');
  await waitFor(() => availability() === 'online', 'online again');
  t.same(calls(), ['e2e over mqtt', 'marker'], 'nothing handed off again after the restart');
});
