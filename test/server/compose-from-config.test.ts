// composeDepsFromConfig: the one place the configuration becomes the composition's parts.
// The mode decides the sender, the sent-box confirmation and the inbox; the configuration's
// switches reach the parts; an override replaces a part, and a part with an effect (the MQTT
// gateway id kept in the home) is not made when it is overridden.
import t, { type Test } from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config.js';
import { createApiKeyFile } from '../../src/core/keys.js';
import { createProbes } from '../../src/device/probes.js';
import { openDatabase } from '../../src/store/database.js';
import { composeDepsFromConfig } from '../../src/server/compose-from-config.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { recordingSender, testRuntime } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';

function partsFor(t: Test, home: string, mode: 'real' | 'simulated') {
  const db = openDatabase(join(home, 'gateway.db'));
  t.teardown(() => db.close());
  const clock = fakeClock();
  const env = { PATH: '/nonexistent' };
  return {
    db,
    clock,
    runtime: testRuntime({ mode }),
    probes: createProbes({ clock, env }),
    apiKey: createApiKeyFile(home),
    env,
    webhookSecret: () => 'whsec_test',
    bootId: 'boot-1',
  };
}

t.test('simulated: no sent-box confirmation, the simulated inbox, two SIM slots; the switches reach the parts', async (t) => {
  const home = tempDir(t);
  const config = loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_QUEUE_RATE: '12', SMS_GATEWAY_INBOX: 'true', SMS_GATEWAY_DEFAULT_SIM: '2' });
  const deps = composeDepsFromConfig(config, partsFor(t, home, 'simulated'));
  t.equal(deps.confirmSends, false);
  t.type(deps.inboxList, 'function', 'reads the simulated inbox');
  t.equal(deps.simCount(), 2);
  t.equal(deps.queueRate, 12);
  t.equal(deps.defaultSim, 2);
  t.equal(deps.inboxWanted!(0), true, 'SMS_GATEWAY_INBOX=true');
  t.equal(deps.bootId, 'boot-1');
  t.equal(deps.webhookSecret!(), 'whsec_test');
  t.equal(deps.mqtt, undefined);
});

t.test('real: confirms sends, reads the phone inbox (no list given), one SIM slot until the phone tells', async (t) => {
  const home = tempDir(t);
  const deps = composeDepsFromConfig(loadConfig({ SMS_GATEWAY_HOME: home }), partsFor(t, home, 'real'));
  t.equal(deps.confirmSends, true);
  t.equal(deps.inboxList, undefined);
  t.equal(deps.simCount(), 1);
  t.equal(deps.inboxWanted!(0), false, 'nobody listens');
  t.equal(deps.inboxWanted!(1), true, 'a target registered over the API');
});

t.test('overrides replace parts; an overridden MQTT id is not made in the home', async (t) => {
  const home = tempDir(t);
  const config = loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_URL: 'mqtt://127.0.0.1:1' });
  const { sender } = recordingSender();
  const mqtt = { settings: config.mqtt!, gatewayId: 'test-gw' };
  const deps = composeDepsFromConfig(config, partsFor(t, home, 'simulated'), { sender, mqtt, inboxList: undefined });
  t.equal(deps.sender, sender);
  t.equal(deps.mqtt, mqtt);
  t.equal(deps.inboxList, undefined, 'an explicit undefined replaces the simulated inbox');
  t.same(deps.inboxWanted!(0), true, 'MQTT listens for received SMS');
  t.notOk(existsSync(join(home, 'gateway-id')), 'no gateway id written');
  const made = composeDepsFromConfig(config, partsFor(t, tempDir(t), 'simulated'));
  t.match(made.mqtt, { settings: config.mqtt, gatewayId: /^[A-Za-z0-9_-]+$/ }, 'without the override the id is made');
});
