// The diagnostics mqtt check (src/status/mqtt-check.ts): off is ok; connected is ok unless
// the broker refuses a subscription or a publish (its ACLs): then failing, naming the topic
// and the broker's reason; not connected is degraded; credentials never appear.
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
  const filter = '$share/sms-gateway/sms-gateway/send';
  const reason = { reasonCode: 135, reason: '135 Not authorized', at: 0 };
  const subscribe = { operation: 'subscribe' as const, topic: filter, ...reason };
  const refused = mqttCheck(health({ subscriptionRefused: filter, refused: [subscribe] }));
  t.equal(refused.status, 'failing');
  t.match(refused.hint, /subscribe to \$share\/sms-gateway\/sms-gateway\/send: 135 Not authorized.*ACLs/);
  t.equal(refused.value.subscriptionRefused, filter);
  t.same(refused.value.refused, [{ ...subscribe, at: '1970-01-01T00:00:00.000Z' }]);
  const quota = { reasonCode: 151, reason: '151 Quota exceeded' };
  const publish = { ...subscribe, operation: 'publish' as const, topic: 'sms-gateway/gw1/state', ...quota };
  const both = mqttCheck(health({ refused: [subscribe, publish] }));
  t.equal(both.status, 'failing');
  t.match(both.hint, /publish to sms-gateway\/gw1\/state: 151 Quota exceeded \(and 1 more refusal\)/);
  const away = mqttCheck(health({ state: 'reconnecting', refused: [publish] }));
  t.equal(away.status, 'degraded', 'not connected: degraded as ever');
  const down = mqttCheck(health({ state: 'reconnecting', lastError: 'connect ECONNREFUSED 192.168.1.10:1883' }));
  t.equal(down.status, 'degraded');
  t.match(down.hint, /Not connected to the MQTT broker mqtt:\/\/192\.168\.1\.10:1883/);
});
