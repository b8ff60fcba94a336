// The opt-out list shared over MQTT (docs/mqtt.md), with gateways in this process on one real
// Mosquitto, all given the same SMS_GATEWAY_MQTT_SHARE_SECRET: each change (a STOP or START
// received, the API) is published retained, QoS 1, on `<prefix>/opt-outs/<number>` (`+` as
// %2B) as `{ optedOut, at, by, proof }`; the other gateway applies it (409 on its synchronous
// route), also one that starts later (retained), STOP and START both ways; the newer `at` wins;
// a change applied from MQTT is not published again; an empty retained payload is never sent
// and is ignored when read.
import t, { type Test } from 'tap';
import mqtt from 'mqtt';
import { listen, noBroker, startBroker, waitFor, type Heard } from './broker.js';
import { optOutGateway, proofOf, SECRET } from './opt-out-gateway.js';

const NUMBER = '+15559990000';
const TOPIC = 'sms-gateway/opt-outs/%2B15559990000';

const gateway = (t: Test, url: string, id: string) => optOutGateway(t, url, id);

const onTopic = (heard: Heard[]) => heard.filter((h) => h.topic === TOPIC);

/** A broker, a listener on the shared opt-out topics, and two gateways on it (gw1, gw2). */
async function twoGatewaysListened(t: Test) {
  const broker = await startBroker(t);
  const { heard } = await listen(t, broker.url, ['sms-gateway/opt-outs/+']);
  const a = await gateway(t, broker.url, 'gw1');
  const b = await gateway(t, broker.url, 'gw2');
  return { broker, heard, a, b };
}

t.test(
  'a STOP received by one gateway refuses the number on the other, and on one that starts later',
  { skip: noBroker },
  async (t) => {
    const { broker, heard, a, b } = await twoGatewaysListened(t);
    t.equal((await b.app.send({ to: NUMBER, message: 'before' })).statusCode, 200, 'not listed yet');

    await a.receive(NUMBER, 'STOP');
    await waitFor(() => onTopic(heard).length === 1, 'the change published');
    const published = onTopic(heard)[0]!;
    t.equal(published.qos, 1, 'QoS 1');
    const later = await listen(t, broker.url, [TOPIC]);
    await waitFor(() => later.heard.length === 1, 'the retained change for a later subscriber');
    t.ok(later.heard[0]!.retain, 'retained');
    t.equal(later.heard[0]!.payload, published.payload);
    const at = a.app.clock.now();
    t.same(JSON.parse(published.payload), { optedOut: true, at, by: 'sms', proof: proofOf(SECRET, NUMBER, true, at) });

    await waitFor(() => b.app.gateway.sending.optOuts.isListed(NUMBER), 'gw2 applies it');
    const refused = await b.app.send({ to: NUMBER, message: 'after' });
    t.equal(refused.statusCode, 409);
    t.equal(refused.json().error.code, 'recipient_opted_out');
    t.same(
      b.app.handoffs.map((h) => h.text),
      ['before'],
      'nothing more handed off by gw2',
    );

    const c = await gateway(t, broker.url, 'gw3'); // was not running at the time
    await waitFor(() => c.app.gateway.sending.optOuts.isListed(NUMBER), 'gw3 reads the retained change');
    t.equal(
      (await c.app.send({ to: NUMBER, message: 'late' })).statusCode,
      409,
      'refused by the gateway that started later',
    );
    t.equal(onTopic(heard).length, 1, 'a change applied from MQTT is not published again');
    t.match(c.app.gateway.sending.optOuts.get(NUMBER), { optedOut: true, by: 'mqtt' });
  },
);

t.test(
  'a change over the API is shared too; the newer at wins; an empty or malformed payload is ignored',
  { skip: noBroker },
  async (t) => {
    const { broker, heard, a, b } = await twoGatewaysListened(t);
    const added = await b.app.app.inject({
      method: 'POST',
      url: '/api/opt-outs',
      headers: b.app.auth,
      payload: { number: NUMBER },
    });
    t.equal(added.statusCode, 201);
    await waitFor(() => a.app.gateway.sending.optOuts.isListed(NUMBER), 'gw1 applies the API change');
    t.match(JSON.parse(onTopic(heard)[0]!.payload), { optedOut: true, by: 'api' });

    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    const listedAt = a.app.gateway.sending.optOuts.get(NUMBER)!.at;
    // An older change (another phone's clock behind): not applied.
    const older = { optedOut: false, at: listedAt - 1, by: 'api', proof: proofOf(SECRET, NUMBER, false, listedAt - 1) };
    await pub.publishAsync(TOPIC, JSON.stringify(older), { qos: 1 });
    await pub.publishAsync(TOPIC, '', { qos: 1 });
    await pub.publishAsync(TOPIC, '{"optedOut":"no"}', { qos: 1 });
    await pub.publishAsync(
      'sms-gateway/opt-outs/not-a-number',
      JSON.stringify({ optedOut: true, at: listedAt + 5, by: 'api' }),
      { qos: 1 },
    );
    // A marker after them: once it is applied, the ones before were read (one connection, in order).
    await pub.publishAsync(
      'sms-gateway/opt-outs/%2B15550000001',
      JSON.stringify({ optedOut: true, at: listedAt, by: 'api' }),
      { qos: 1 },
    );
    await waitFor(() => a.app.gateway.sending.optOuts.isListed('+15550000001'), 'the marker');
    t.ok(a.app.gateway.sending.optOuts.isListed(NUMBER), 'the older change lost; nothing else changed it');
    t.equal(a.app.gateway.sending.optOuts.count(), 2);

    // A newer one wins (a removal, proven under the phones' secret).
    const removal = {
      optedOut: false,
      at: listedAt + 1,
      by: 'api',
      proof: proofOf(SECRET, NUMBER, false, listedAt + 1),
    };
    await pub.publishAsync(TOPIC, JSON.stringify(removal), { qos: 1, retain: true });
    await waitFor(
      () => !a.app.gateway.sending.optOuts.isListed(NUMBER) && !b.app.gateway.sending.optOuts.isListed(NUMBER),
      'both take it off',
    );
    t.equal((await a.app.send({ to: NUMBER, message: 'again' })).statusCode, 200);

    // gw1 lists it again over the API: published once, never an empty payload. Only messages
    // dated after the removal count: gw2 may still be putting its own older listing back on the
    // broker (it answers the older change above by republishing its own), on its own connection.
    const before = onTopic(heard).length;
    a.app.clock.advance(60_000);
    await a.app.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.app.auth, payload: { number: NUMBER } });
    await waitFor(() => b.app.gateway.sending.optOuts.isListed(NUMBER), 'gw2 lists it again');
    const after = onTopic(heard).slice(before);
    t.notOk(
      after.some((h) => h.payload === ''),
      'never an empty payload',
    );
    const mine = after.filter((h) => (JSON.parse(h.payload) as { at: number }).at > listedAt + 1);
    t.equal(mine.length, 1, 'one change, published once');
    t.same(Object.keys(JSON.parse(mine[0]!.payload)).sort(), ['at', 'by', 'optedOut', 'proof'], 'the whole change');
    t.match(JSON.parse(mine[0]!.payload), { optedOut: true, at: a.app.clock.now(), by: 'api' });
  },
);

t.test(
  'a change made while the broker is unreachable is published at the next connect',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const a = await gateway(t, broker.url, 'gw1');
    await broker.stop();
    await waitFor(() => !a.app.gateway.mqtt!.bridge.connected(), 'disconnected');
    await a.receive(NUMBER, 'STOP');
    t.ok(a.app.gateway.sending.optOuts.isListed(NUMBER), 'listed here at once');
    await broker.start();
    // The reconnect delay is on the app's fake clock: move it on while waiting.
    await waitFor(() => {
      a.app.clock.advance(1000);
      return a.app.gateway.mqtt!.bridge.connected();
    }, 'connected again');
    const later = await listen(t, broker.url, [TOPIC]);
    await waitFor(() => later.heard.length === 1, 'the change, retained, once the broker is back');
    t.match(JSON.parse(later.heard[0]!.payload), { optedOut: true, by: 'sms' });
  },
);

t.test(
  'a gateway whose id is opt-outs still takes its sends and answers nothing for its own topics',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const { heard } = await listen(t, broker.url, ['sms-gateway/opt-outs/errors']);
    const g = await gateway(t, broker.url, 'opt-outs');
    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    await pub.publishAsync(
      'sms-gateway/opt-outs/send',
      JSON.stringify({ to: '+15551239999', message: 'still a send', id: 'x1' }),
      { qos: 1 },
    );
    await waitFor(() => g.app.gateway.sending.stats.allTime().accepted === 1, 'the send queued');
    t.same(heard, [], 'its availability and state (also under opt-outs/+) are not taken for sends');
    t.equal(g.app.gateway.sending.optOuts.count(), 0);
  },
);

t.test('two gateways with the same secret share STOP and START both ways', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const a = await gateway(t, broker.url, 'gw1');
  const b = await gateway(t, broker.url, 'gw2');
  /** Each phone's clock a second past the other's: the change made next is the newer one everywhere. */
  const nextOn = (x: typeof a, y: typeof a) =>
    x.app.clock.advance(Math.max(0, y.app.clock.now() - x.app.clock.now()) + 1000);
  const on = async (x: typeof a, number: string) => (await x.listed()).numbers.includes(number);

  nextOn(a, b);
  await a.receive(NUMBER, 'STOP');
  await waitFor(() => on(b, NUMBER), 'gw2 lists the number gw1 got STOP from');
  nextOn(b, a);
  await b.receive(NUMBER, 'START');
  await waitFor(async () => !(await on(a, NUMBER)), 'gw1 takes it off after the START gw2 got');
  nextOn(b, a);
  await b.receive(NUMBER, 'STOP');
  await waitFor(() => on(a, NUMBER), 'gw1 lists it after the STOP gw2 got');
  nextOn(a, b);
  await a.receive(NUMBER, 'START');
  await waitFor(async () => !(await on(b, NUMBER)), 'gw2 takes it off after the START gw1 got');
  t.equal((await b.app.send({ to: NUMBER, message: 'welcome back' })).statusCode, 200, 'gw2 sends to it again');
  t.match(a.app.gateway.sending.optOuts.get(NUMBER), { optedOut: false, by: 'sms' });
  t.match(b.app.gateway.sending.optOuts.get(NUMBER), { optedOut: false, by: 'mqtt' });
});
