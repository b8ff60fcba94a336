// The diagnostics mqtt check (src/status/mqtt-check.ts): off is ok; connected is ok unless
// the broker refused a subscription (its ACLs): then degraded, naming the filters; not
// connected is degraded; credentials never appear.
import t from 'tap';
import { mqttCheck, newMqttHealth, type MqttHealth } from '../../src/status/mqtt-check.js';

const health = (over: Partial<MqttHealth> = {}): MqttHealth => ({
  ...newMqttHealth('mqtt://192.168.1.10:1883', 'sms-gateway-gw1'),
  state: 'connected',
  since: 0,
  ...over,
});

t.test('states', async (t) => {
  t.same(mqttCheck(null), { status: 'ok', value: { enabled: false } });
  t.equal(mqttCheck(health()).status, 'ok');
  const refused = mqttCheck(health({ subscriptionRefused: '$share/sms-gateway/sms-gateway/send' }));
  t.equal(refused.status, 'degraded');
  t.match(refused.hint, /refused the subscription to \$share\/sms-gateway\/sms-gateway\/send.*ACLs/);
  t.equal(refused.value.subscriptionRefused, '$share/sms-gateway/sms-gateway/send');
  const down = mqttCheck(health({ state: 'reconnecting', lastError: 'connect ECONNREFUSED 192.168.1.10:1883' }));
  t.equal(down.status, 'degraded');
  t.match(down.hint, /Not connected to the MQTT broker mqtt:\/\/192\.168\.1\.10:1883/);
});
