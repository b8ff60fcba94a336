// portsFor (src/server/gateway-deps.ts): the one place the mode and the configuration
// become the gateway's ports. The mode decides the sender, the sent-box confirmation and
// the inbox; a port given through `ports` replaces the real one, and a port whose making
// has an effect (the MQTT gateway id kept in the home) is not made when it is given.
import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, type Config } from '../../src/core/config.js';
import { createApiKeyFile } from '../../src/core/keys.js';
import { createProbes } from '../../src/device/probes.js';
import { openDatabase } from '../../src/store/database.js';
import { portsFor, type GatewayDeps } from '../../src/server/gateway-deps.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';
import { recordingSender, testRuntime } from '../helpers/test-app.js';

function depsFor(t: Test, config: Config, mode: 'real' | 'simulated', ports: GatewayDeps['ports'] = {}): GatewayDeps {
  const db = openDatabase(join(config.home, 'gateway.db'));
  t.teardown(() => db.close());
  const clock = fakeClock();
  const env = { PATH: '/nonexistent' };
  const probes = createProbes({ clock, env });
  return {
    config,
    db,
    clock,
    runtime: testRuntime({ mode }),
    probes,
    apiKey: createApiKeyFile(config.home),
    env,
    webhookSecret: () => 'whsec_test',
    bootId: 'boot-1',
    ports,
  };
}

t.test('simulated: no sent-box confirmation, the simulated inbox, two SIM slots', async (t) => {
  const home = tempDir(t);
  const ports = portsFor(depsFor(t, loadConfig({ SMS_GATEWAY_HOME: home }), 'simulated'));
  t.equal(ports.confirmSends, false);
  t.type(ports.inboxList, 'function', 'reads the simulated inbox');
  t.equal(ports.simCount.known(), 2);
  t.equal(await ports.simCount.read(), 2, 'no phone here: the two simulated slots');
  t.same(ports.timings, {});
  t.equal(
    (await ports.sender.send({ number: '+15551234567', text: 'hi', simSlot: 1 })).ok,
    true,
    'the simulated sender',
  );
});

t.test('real: confirms sends, reads the phone inbox (no list given), no SIM count until the phone tells', async (t) => {
  const home = tempDir(t);
  const ports = portsFor(depsFor(t, loadConfig({ SMS_GATEWAY_HOME: home }), 'real'));
  t.equal(ports.confirmSends, true);
  t.equal(ports.inboxList, undefined);
  t.equal(ports.simCount.known(), null, 'unknown, not 1: an unknown count refuses no slot');
  t.equal(await ports.simCount.read(), null, 'the phone cannot tell (no termux-telephony-deviceinfo here)');
  const answer = await ports.sender.send({ number: '+15551234567', text: 'hi', simSlot: 1 });
  t.match(answer, { ok: false, reason: 'sender_unavailable' }, 'termux-sms-send, not found on this PATH');
});

t.test('a given port replaces the real one; a given MQTT id is not made in the home', async (t) => {
  const home = tempDir(t);
  const config = loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_URL: 'mqtt://127.0.0.1:1' });
  const { sender } = recordingSender();
  const ports = portsFor(
    depsFor(t, config, 'simulated', { sender, mqttGatewayId: () => 'test-gw', inboxList: undefined }),
  );
  t.equal(ports.sender, sender);
  t.equal(ports.mqttGatewayId(), 'test-gw');
  t.equal(ports.inboxList, undefined, 'an explicit undefined replaces the simulated inbox');
  t.notOk(existsSync(join(home, 'gateway-id')), 'no gateway id written');
  const other = tempDir(t);
  const made = portsFor(
    depsFor(t, loadConfig({ SMS_GATEWAY_HOME: other, SMS_GATEWAY_MQTT_URL: 'mqtt://127.0.0.1:1' }), 'simulated'),
  );
  t.match(made.mqttGatewayId(), /^[A-Za-z0-9_-]+$/, 'without the port the id is made');
  t.equal(made.mqttGatewayId(), made.mqttGatewayId(), 'once');
});
