// Opt-out changes the broker has not taken yet survive in the database (docs/mqtt.md): a change
// made while the broker is down is published after a restart once the broker is back; a change
// the broker gave back is not published again at the next connect. Real Mosquitto, the gateway
// in process on a home kept across the restart; changes made while MQTT was off are published
// when it is switched on.
import t from 'tap';
import mqtt from 'mqtt';
import { fakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';
import { listen, noBroker, startBroker, waitFor } from './broker.js';
import { optOutGateway, proofOf, SECRET } from './opt-out-gateway.js';

const NUMBER = '+15550003001';
const TOPIC = 'sms-gateway/opt-outs/%2B15550003001';
const LATER = '+15550003009';
const LATER_TOPIC = 'sms-gateway/opt-outs/%2B15550003009';

type Gateway = Awaited<ReturnType<typeof optOutGateway>>;

/** Moves the gateway's fake clock (its reconnect delay) until it is connected. */
const reconnected = (g: Gateway) =>
  waitFor(() => {
    g.app.clock.advance(1000);
    return g.app.gateway.mqtt!.bridge.connected();
  }, 'connected again');

t.test(
  'a change made while the broker is down is published after a restart, once the broker is back',
  { skip: noBroker },
  async (t) => {
    const home = tempDir(t);
    const broker = await startBroker(t);
    let at = 0;
    await t.test('first run: the broker goes down, a STOP arrives, the gateway stops', async (t) => {
      const a = await optOutGateway(t, broker.url, 'gw1', { home });
      await broker.stop();
      await waitFor(() => !a.app.gateway.mqtt!.bridge.connected(), 'disconnected');
      await a.receive(NUMBER, 'STOP');
      at = a.app.gateway.sending.optOuts.get(NUMBER)!.at;
    });
    // The restart, while the broker is still down.
    const again = await optOutGateway(t, broker.url, 'gw1', { home, connect: false, clock: fakeClock(at + 60_000) });
    t.ok(again.app.gateway.sending.optOuts.isListed(NUMBER), 'listed after the restart');
    await broker.start();
    await reconnected(again);
    const later = await listen(t, broker.url, [TOPIC]);
    await waitFor(() => later.heard.length === 1, 'the change, retained, once the broker is back');
    t.same(JSON.parse(later.heard[0]!.payload), {
      optedOut: true,
      at,
      by: 'sms',
      proof: proofOf(SECRET, NUMBER, true, at),
    });
    t.ok(later.heard[0]!.retain, 'retained');
  },
);

t.test('a change the broker gave back is not published again at the next connect', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t); // keeps nothing across its own restart
  const a = await optOutGateway(t, broker.url, 'gw1');
  const first = await listen(t, broker.url, [TOPIC]);
  await a.receive(NUMBER, 'STOP');
  await waitFor(() => first.heard.length === 1, 'published');
  // The broker gives it back to the gateway too (its subscription), which marks it shared; a marker
  // published after it, once listed, says the gateway read it (one connection, in order).
  const stranger = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
  const marker = { optedOut: true, at: a.app.clock.now(), by: 'api' };
  await stranger.publishAsync('sms-gateway/opt-outs/%2B15550003005', JSON.stringify(marker), { qos: 1 });
  await stranger.endAsync(true);
  await waitFor(() => a.app.gateway.sending.optOuts.isListed('+15550003005'), 'the marker');
  // While the broker is down again another STOP arrives: only that one is published at the next connect.
  await broker.stop();
  await waitFor(() => !a.app.gateway.mqtt!.bridge.connected(), 'disconnected');
  await a.receive(LATER, 'STOP');
  await broker.start();
  const { heard } = await listen(t, broker.url, ['sms-gateway/opt-outs/+']);
  await reconnected(a);
  await waitFor(() => heard.some((h) => h.topic === LATER_TOPIC), 'the unshared change published');
  // Unshared changes go out by number, NUMBER before LATER: had it been unshared, it would be here.
  t.same(
    heard.map((h) => h.topic),
    [LATER_TOPIC],
    'the change already shared (nor the one read from the broker) is not published again',
  );
});

t.test('changes made while MQTT was off are published when it is switched on', { skip: noBroker }, async (t) => {
  const home = tempDir(t);
  const broker = await startBroker(t);
  let at = 0;
  await t.test('a run without MQTT: a number listed over the API', async (t) => {
    const off = await testApp(t, { home });
    const added = await off.app.inject({
      method: 'POST',
      url: '/api/opt-outs',
      headers: off.auth,
      payload: { number: NUMBER },
    });
    t.equal(added.statusCode, 201);
    at = off.gateway.sending.optOuts.get(NUMBER)!.at;
  });
  const { heard } = await listen(t, broker.url, [TOPIC]);
  await optOutGateway(t, broker.url, 'gw1', { home, clock: fakeClock(at + 60_000) });
  await waitFor(() => heard.length === 1, 'published at the first connect');
  t.same(JSON.parse(heard[0]!.payload), { optedOut: true, at, by: 'api', proof: proofOf(SECRET, NUMBER, true, at) });
});
