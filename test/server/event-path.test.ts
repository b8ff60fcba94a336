// The composed gateway's event path (src/events/domain-events.ts): each event has exactly the
// listeners the map names, subscribed by the parts as they are composed; and a settled
// message is heard by all of them once its record is committed (metrics, webhook delivery).
import t from 'tap';
import { testApp } from '../helpers/test-app.js';
import { startReceiver } from '../fixtures/receiver.js';

t.test('who listens to what: the map of events/domain-events.ts, without MQTT', async (t) => {
  const { gateway } = await testApp(t);
  const { events } = gateway;
  t.equal(events.listenerCount('handoff.finished'), 3, 'send health, metrics, the inbox watcher (reads more often after it)');
  t.equal(events.listenerCount('message.queued'), 1, 'the lane');
  t.equal(events.listenerCount('message.settled'), 1, 'metrics');
  t.equal(events.listenerCount('sms.received'), 1, 'metrics (what an SMS changes is applied in its commit)');
  t.equal(events.listenerCount('opt-out.changed'), 0, 'none without MQTT');
  t.equal(events.listenerCount('delivery.due'), 1, 'webhook delivery');
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
