// The bridge against a real Mosquitto: the PUBACK leaves only once onMessage settled, so a
// gateway that dies before its queue commit is given the message again when it comes back
// (same client id, kept session); one that acknowledged is not. Reconnect delays grow.
import t from 'tap';
import mqtt from 'mqtt';
import { createBridge, reconnectDelayMs, redactError } from '../../src/mqtt/bridge.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { noBroker, startBroker, waitFor } from './broker.js';

t.test(
  'no PUBACK before onMessage settles: the message comes back to the same session',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const heard: string[][] = [[], []];
    const release: (() => void)[] = [];
    const make = (n: number, settle: boolean) =>
      createBridge({
        url: broker.url,
        username: undefined,
        password: undefined,
        clientId: 'sms-gateway-t1',
        will: { topic: 't/t1/availability', payload: 'offline' },
        clock: fakeClock(),
        backoffMs: () => 60_000,
        onConnect: (b) => b.subscribe(['t/t1/send']),
        onMessage: (_topic, payload) => {
          heard[n]!.push(payload.toString());
          return settle ? Promise.resolve() : new Promise<void>((r) => release.push(r));
        },
      });
    const first = make(0, false);
    first.start();
    await waitFor(() => first.connected(), 'the first connection');
    const pub = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => pub.endAsync(true));
    // The subscription is made after the connect; wait until the broker routes to it.
    const published: string[] = [];
    await waitFor(async () => {
      published.push(`hello-${published.length}`);
      await pub.publishAsync('t/t1/send', published.at(-1)!, { qos: 1 });
      return heard[0]!.length > 0;
    }, 'the first delivery');
    t.equal(
      heard[0]!.length,
      1,
      'one delivered, never acknowledged (the gateway "dies" before its commit); the rest wait behind it',
    );
    // The same gateway back (a restart): the broker hands the unacknowledged message over again.
    const second = make(1, true);
    second.start();
    t.teardown(() => second.stop());
    const wanted = published.slice(published.indexOf(heard[0]![0]!));
    await waitFor(() => heard[1]!.length >= wanted.length, 'the redelivery');
    t.same(heard[1], wanted, 'given again, in order, to the session that never acknowledged them');
    await first.stop();
    for (const r of release) r();
    // Acknowledged now: a third start of the same session gets nothing again.
    await second.stop();
    const third = make(1, true);
    third.start();
    t.teardown(() => third.stop());
    await waitFor(() => third.connected(), 'the third connection');
    await pub.publishAsync('t/t1/send', 'marker', { qos: 1 });
    await waitFor(() => heard[1]!.includes('marker'), 'the marker');
    t.same(heard[1], [...wanted, 'marker'], 'acknowledged messages are not given a third time');
  },
);

t.test('reconnect delays double from 1 s to at most 60 s, with ±20 % jitter', async (t) => {
  t.same(
    [1, 2, 3, 7, 8, 20].map((n) => reconnectDelayMs(n, () => 0.5)),
    [1000, 2000, 4000, 60_000, 60_000, 60_000],
  );
  t.equal(
    reconnectDelayMs(1, () => 0),
    800,
  );
  t.equal(
    reconnectDelayMs(1, () => 1),
    1200,
  );
});

t.test('errors lose their credentials', async (t) => {
  t.equal(redactError('cannot reach mqtts://user:pw@host:8883', ['pw']), 'cannot reach mqtts://host:8883');
  t.equal(redactError('Not authorized for hunter2', ['hunter2', undefined]), 'Not authorized for ***');
});
