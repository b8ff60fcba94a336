// The phone's battery (issue 37): an idle hour with the contract's settings makes at most
// 150 Termux:API calls. The gateway as the start composes it (createGateway, real mode, on
// the counting fake termux-* commands, without binding a port), with the inbox on, one
// webhook target, MQTT on a real Mosquitto (left out, and said, where it is not installed)
// and GET /metrics every 15 s, on simulated time (scripts/bench/sim-clock.ts: time stands
// still while a command runs). After a 5 minute warm-up (the start's own reads), one whole
// hour is run and every call of a termux-* command in it counted.
import t from 'tap';
import { FAKE_TERMUX, tempDir } from '../helpers/paths.js';
import { startReceiver } from '../fixtures/receiver.js';
import { noBroker, startBroker } from '../mqtt/broker.js';
import { fakePhone, idleGateway, TERMUX_API } from '../../scripts/bench/idle-rig.js';

const BUDGET = 150;

t.test(
  'an idle hour with the inbox, a webhook target, MQTT and /metrics every 15 s: at most 150 Termux:API calls',
  async (t) => {
    const rx = await startReceiver(t);
    const broker = noBroker ? undefined : await startBroker(t);
    if (!broker) t.comment(`MQTT not tried: ${String(noBroker)}`);
    const phone = fakePhone(tempDir(t, 'smsgw-phone-'), FAKE_TERMUX);
    const rig = await idleGateway({
      home: tempDir(t),
      phone,
      webhookUrl: rx.url,
      mqttUrl: broker?.url,
      listen: false,
      ignoreChildren: ['mosquitto'],
    });
    t.teardown(() => rig.stop());
    await rig.clock.runFor(5 * 60_000);
    const before = phone.counts();
    const scrapes = rig.scrapes();
    await rig.clock.runFor(60 * 60_000);
    const after = phone.counts();
    const calls = Object.fromEntries(TERMUX_API.map((name) => [name, after[name]! - before[name]!]));
    const total = Object.values(calls).reduce((a, b) => a + b, 0);
    t.comment(`an idle hour: ${total} Termux:API calls ${JSON.stringify(calls)}, ${rig.scrapes() - scrapes} scrapes`);
    t.ok(rig.scrapes() - scrapes >= 239, 'Prometheus scraped all hour');
    t.equal(rx.received.length, 0, 'nothing happened: the hour was idle');
    t.ok(total <= BUDGET, `at most ${BUDGET} Termux:API calls in the idle hour (${total})`);
  },
);
