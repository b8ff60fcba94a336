// The composed gateway's event path (src/events/domain-events.ts): each event has exactly the
// listeners the map names, subscribed by the parts as they are composed; and a settled
// message is heard by all of them once its record is committed (metrics, webhook delivery).
import t, { type Test } from 'tap';
import { EVENT_LISTENERS } from '../../src/events/domain-events.js';
import { testApp, type MqttOptions } from '../helpers/test-app.js';
import { startReceiver } from '../fixtures/receiver.js';

const unreachable = { url: 'mqtt://127.0.0.1:1', username: undefined, password: undefined, prefix: 'sms-gateway' };
const settings = { ...unreachable, gatewayId: 'gw1', contacts: [], discovery: true, shareSecret: undefined };
const MQTT: MqttOptions = { settings, gatewayId: 'gw1' };

type Path = Awaited<ReturnType<typeof testApp>>['gateway']['events'];

/** Where the composed gateway's subscriptions differ from the map: a name it lacks, a count that differs. */
function unlike(events: Path, mqtt: boolean): string[] {
  const named = Object.keys(EVENT_LISTENERS);
  const problems = events
    .subscribed()
    .filter((name) => !named.includes(name))
    .map((name) => `${name}: not in the map`);
  for (const [name, { always, mqtt: withMqtt = [] }] of Object.entries(EVENT_LISTENERS)) {
    const listeners = mqtt ? [...always, ...withMqtt] : always;
    const count = events.listenerCount(name as keyof typeof EVENT_LISTENERS);
    const names = listeners.join(', ') || 'none';
    if (count !== listeners.length) problems.push(`${name}: ${count} listeners, the map names ${names}`);
  }
  return problems;
}

async function heldToTheMap(t: Test, mqtt: boolean) {
  const { gateway } = await testApp(t, mqtt ? { mqtt: MQTT } : {});
  t.same(unlike(gateway.events, mqtt), [], 'every subscription is the map of events/domain-events.ts');
}

t.test('who listens to what: the map of events/domain-events.ts, without MQTT', (t) => heldToTheMap(t, false));

t.test('and with MQTT', (t) => heldToTheMap(t, true));

t.test('a subscription the map does not name fails the check', async (t) => {
  const { gateway } = await testApp(t);
  gateway.events.on('message.queued', () => undefined);
  (gateway.events as unknown as { on(name: string, l: () => void): void }).on('sms.unheard', () => undefined);
  const expected = ['sms.unheard: not in the map', 'message.queued: 2 listeners, the map names the lane'];
  t.same(unlike(gateway.events, false), expected);
});

t.test('a queued message goes out, settles, and every listener hears of it', async (t) => {
  const receiver = await startReceiver(t);
  const a = await testApp(t, { webhookUrls: [receiver.url] });
  const heard: string[] = [];
  a.gateway.events.on('message.settled', (e) => heard.push(`${e.type} ${String(e.data.id)}`));
  const res = await a.queue({ to: '+15551234567', message: 'hello' });
  t.equal(res.statusCode, 202);
  const id = res.json().data[0].id as string;
  await a.clock.tick(0); // message.queued: the lane looks again and hands it off
  t.same(heard, [`sms.sent ${id}`], 'message.settled, once');
  t.equal(a.gateway.sending.sendHealth.current().lastHandoffOk, true, 'send health heard handoff.finished');
  const metrics = await a.gateway.status.metrics.scrape();
  t.match(metrics, /sms_gateway_segments_handed_off_total 1\b/, 'metrics heard handoff.finished');
  await a.gateway.webhooks.delivery.runDue();
  t.same(
    receiver.received.map((r) => (JSON.parse(r.body) as { type: string }).type),
    ['sms.sent'],
    'delivery.due woke webhook delivery',
  );
});
