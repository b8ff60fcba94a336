// What the broker refuses is seen (issue 44, item 9): against a real Mosquitto whose ACL
// lets anonymous clients read but never publish (PUBACK reason 135), the gateway's MQTT
// check is failing with the broker's reason and the topic, lastError says so, GET /metrics
// counts the refusals by operation and reason, and the log warns once per topic however
// often it is refused. The broker restarted with an ACL that allows: ok again on the new
// connection. On a broker that takes everything: ok, no refusal counted.
import { spawnSync } from 'node:child_process';
import t, { type Test } from 'tap';
import { pino } from 'pino';
import { testApp } from '../helpers/test-app.js';
import { gatewaySettings, listen, noBroker, startBroker, waitFor } from './broker.js';

type App = Awaited<ReturnType<typeof testApp>>;

interface LogLine {
  level: number;
  msg: string;
  topic?: string;
  reason?: string;
  operation?: string;
}

/** A gateway with MQTT on `url`, its warnings kept in `lines`, started and connected. */
async function mqttApp(t: Test, url: string) {
  const lines: LogLine[] = [];
  const logger = pino({ level: 'warn' }, { write: (s: string) => void lines.push(JSON.parse(s) as LogLine) });
  const mqtt = { settings: gatewaySettings(url), gatewayId: 'gw1', backoffMs: () => 100 };
  const a = await testApp(t, { logger, mqtt });
  a.gateway.mqtt!.start();
  await waitFor(() => a.gateway.mqtt!.bridge.connected(), 'connected');
  return { a, lines };
}

interface Refused {
  operation: string;
  topic: string;
  reasonCode: number;
  reason: string;
}

async function mqttCheck(a: App) {
  const res = await a.get('/api/diagnostics');
  return res.json().data.checks.mqtt as {
    status: string;
    hint?: string;
    value: { state: string; lastError: string | null; refused: Refused[] };
  };
}

const refusalSamples = async (a: App) => {
  const lines = (await a.get('/metrics')).body.split('\n');
  return lines.filter((l) => l.startsWith('sms_gateway_mqtt_refusals_total{'));
};

const everyPublishRefused = 'ACL refusing every publish: failing with reason and topic, counted, warned once per topic';
t.test(everyPublishRefused, { skip: noBroker }, async (t) => {
  const broker = await startBroker(t, ['127.0.0.1'], { acl: 'topic read #\n' });
  const { a, lines } = await mqttApp(t, broker.url);
  await waitFor(() => a.gateway.mqtt!.bridge.health().refused.length > 0, 'a refusal seen');
  const check = await mqttCheck(a);
  t.equal(check.status, 'failing');
  t.equal(check.value.state, 'connected', 'connected all the same');
  t.match(check.value.refused, [{ operation: 'publish', reasonCode: 135, reason: '135 Not authorized' }]);
  t.ok(
    check.value.refused.some((r) => r.topic === 'sms-gateway/gw1/availability'),
    'names the topics, the availability among them',
  );
  t.match(check.value.lastError, /refused to let the gateway publish to sms-gateway\/gw1\/.*135 Not authorized/);
  t.match(check.hint, /refused to let the gateway publish to sms-gateway\/gw1\/\S+: 135 Not authorized.*ACLs/);

  const samples = await refusalSamples(a);
  t.equal(samples.length, 1, samples.join('\n'));
  const scrape = (await a.get('/metrics')).body;
  const promtool = spawnSync('promtool', ['check', 'metrics'], { input: scrape, encoding: 'utf8' });
  if (!promtool.error) t.equal(promtool.stdout + promtool.stderr, '', 'promtool check metrics: nothing');
  t.match(samples[0], /^sms_gateway_mqtt_refusals_total\{operation="publish",reason="not_authorized"\} [1-9]\d*$/);

  const warnedTopics = () => lines.filter((l) => l.msg.includes('refused a publish')).map((l) => l.topic);
  const before = warnedTopics();
  t.ok(before.length > 0, 'warned');
  t.same(new Set(before).size, before.length, 'once per topic');
  t.ok(
    lines.every((l) => l.level === 40 || !l.msg.includes('refused')),
    'as warnings',
  );
  // The same topics refused again (the state is published again at the next connect): no new warning.
  const counted = Number(samples[0]!.split(' ').at(-1));
  a.gateway.mqtt!.bridge.publish('sms-gateway/gw1/availability', 'online', { qos: 1, retain: true });
  const total = () => Object.values(a.gateway.mqtt!.bridge.health().refusalCounts).reduce((x, y) => x + y, 0);
  await waitFor(() => total() > counted, 'the refusal counted again');
  t.same(warnedTopics(), before, 'no second warning for the same topic');
});

t.test('a broker that takes everything: ok, nothing refused or counted', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const { a, lines } = await mqttApp(t, broker.url);
  const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/availability']);
  await waitFor(() => heard.some((h) => h.payload === 'online'), 'the availability taken by the broker');
  const check = await mqttCheck(a);
  t.equal(check.status, 'ok');
  t.same(check.value.refused, []);
  t.same(await refusalSamples(a), []);
  t.same(
    lines.filter((l) => l.msg.includes('refused')),
    [],
  );
});

t.test('the ACL fixed and the broker restarted: ok again on the new connection', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t, ['127.0.0.1'], { acl: 'topic read #\n' });
  const { a } = await mqttApp(t, broker.url);
  const health = () => a.gateway.mqtt!.bridge.health();
  // A topic published once (an event), not again at the next connect.
  a.gateway.mqtt!.bridge.publish('sms-gateway/gw1/events/once', '{}', { qos: 1, retain: false });
  await waitFor(() => health().refused.some((r) => r.topic.endsWith('/events/once')), 'the event refused');
  broker.setAcl('topic readwrite #\n');
  await broker.stop();
  await waitFor(() => !a.gateway.mqtt!.bridge.connected(), 'disconnected');
  await broker.start();
  // The reconnect delay is on the app's fake clock: move it on while waiting.
  await waitFor(() => {
    a.clock.advance(1000);
    return health().state === 'connected';
  }, 'connected again');
  const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/availability']);
  await waitFor(() => heard.some((h) => h.payload === 'online'), 'the availability taken by the broker');
  const check = await mqttCheck(a);
  t.equal(check.status, 'ok', check.hint ?? '');
  t.same(check.value.refused, []);
  t.ok((await refusalSamples(a)).length > 0, 'the refusals before still counted');
});
