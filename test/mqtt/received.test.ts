// Every received SMS on `<prefix>/<id>/received` (docs/mqtt.md),
// through the real inbox watcher and a real Mosquitto: `{ event_type, from, contact, body,
// receivedAt, inReplyTo, keyword }`, QoS 1, not retained, one message per SMS (two identical
// SMS are two events); the event type the first that applies: opt_out / opt_in (only with
// SMS_GATEWAY_OPT_OUT on), keyword, reply, received; contact from SMS_GATEWAY_MQTT_CONTACTS.
import t, { type Test } from 'tap';
import { makeEvent } from '../../src/store/event-record.js';
import { receivedPayload, RECEIVED_EVENT_TYPES } from '../../src/mqtt/received.js';
import { testApp } from '../helpers/test-app.js';
import { gatewaySettings, listen, noBroker, startBroker, waitFor } from './broker.js';
import { fakeInbox } from '../helpers/fake-inbox.js';

const TOPIC = 'sms-gateway/gw1/received';

/** A gateway with MQTT (contact Alice +15551230001) and a fake phone inbox. */
async function gatewayWithInbox(t: Test, optOut: boolean) {
  const broker = await startBroker(t);
  const inbox = fakeInbox();
  const app = await testApp(t, {
    inboxList: inbox.list,
    optOut: { enabled: optOut },
    mqtt: { settings: gatewaySettings(broker.url), gatewayId: 'gw1', backoffMs: () => 100 },
  });
  const { heard } = await listen(t, broker.url, [TOPIC]);
  app.gateway.mqtt!.start();
  await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
  await app.gateway.inbox.watcher!.pollOnce(); // the baseline
  const receive = async (from: string, body: string) => {
    inbox.receive(from, body, app.clock.now());
    app.clock.advance(1000);
    await app.gateway.inbox.watcher!.pollOnce();
  };
  const payloads = () => heard.map((h) => JSON.parse(h.payload) as Record<string, unknown>);
  return { app, heard, receive, payloads };
}

t.test(
  'each SMS once on the received topic, with its event type and contact; two identical ones are two',
  { skip: noBroker },
  async (t) => {
    const { app, heard, receive, payloads } = await gatewayWithInbox(t, true);
    await receive('+1 555 123 0001', 'Door open');
    await receive('+1 555 123 0001', 'Door open');
    await receive('+15559990000', 'hello');
    const sent = (
      await app.send({ to: '+15557770000', message: 'Alarm. Reply 1 to disarm', tags: { alarm: 'garage' } })
    ).json().messageId as string;
    await receive('+15557770000', '1');
    await receive('+15559990000', 'Stop!');
    await receive('+15559990000', 'start');
    await waitFor(() => heard.length === 6, 'six messages');
    t.same(
      payloads().map((p) => [p.event_type, p.from, p.contact, p.body]),
      [
        ['received', '+1 555 123 0001', 'Alice', 'Door open'],
        ['received', '+1 555 123 0001', 'Alice', 'Door open'],
        ['received', '+15559990000', null, 'hello'],
        ['reply', '+15557770000', null, '1'],
        ['opt_out', '+15559990000', null, 'Stop!'],
        ['opt_in', '+15559990000', null, 'start'],
      ],
    );
    t.same(payloads()[3]!.inReplyTo, { id: sent, tags: { alarm: 'garage' } }, 'a reply names its question');
    for (const p of payloads()) {
      t.same(
        Object.keys(p).sort(),
        ['body', 'contact', 'event_type', 'from', 'inReplyTo', 'keyword', 'receivedAt'].sort(),
      );
      t.type(p.receivedAt, 'string');
      t.equal(p.keyword, null, 'no keyword rule matched');
    }
    t.equal(payloads()[0]!.inReplyTo, null);
    for (const h of heard) {
      t.notOk(h.retain, 'not retained');
      t.equal(h.qos, 1, 'QoS 1');
    }
  },
);

t.test('with SMS_GATEWAY_OPT_OUT off, STOP is an ordinary received SMS', { skip: noBroker }, async (t) => {
  const { heard, receive, payloads } = await gatewayWithInbox(t, false);
  await receive('+15559990000', 'STOP');
  await waitFor(() => heard.length === 1, 'one message');
  t.equal(payloads()[0]!.event_type, 'received');
});

t.test('the event type is the first that applies: opt-out keywords, then a rule keyword, then a reply', async (t) => {
  const base = { from: '+15550001', body: 'x', receivedAt: null, inReplyTo: null, keyword: null };
  const event = (data: Record<string, unknown>) => makeEvent('sms.received', { ...base, ...data } as never, 0);
  const on = { contacts: [], optOutEnabled: true };
  const question = { id: 'msg_1', tags: {} };
  t.equal(receivedPayload(on, event({ body: 'STATUS', keyword: 'STATUS' })).event_type, 'keyword');
  t.equal(
    receivedPayload(on, event({ body: 'STATUS', keyword: 'STATUS' })).keyword,
    'STATUS',
    'the rule keyword is carried',
  );
  t.equal(
    receivedPayload(on, event({ body: '1', keyword: '1', inReplyTo: question })).event_type,
    'keyword',
    'keyword before reply',
  );
  t.equal(
    receivedPayload(on, event({ body: 'STOP', keyword: 'STOP', inReplyTo: question })).event_type,
    'opt_out',
    'opt-out before keyword',
  );
  t.equal(
    receivedPayload({ ...on, optOutEnabled: false }, event({ body: 'STOP', inReplyTo: question })).event_type,
    'reply',
  );
  t.equal(receivedPayload(on, event({ body: 'HELP' })).event_type, 'received', 'HELP is no event type of its own');
  t.equal(receivedPayload(on, event({})).receivedAt, new Date(0).toISOString(), 'no receivedAt: the event time');
  t.same(RECEIVED_EVENT_TYPES, ['opt_out', 'opt_in', 'keyword', 'reply', 'received']);
});
