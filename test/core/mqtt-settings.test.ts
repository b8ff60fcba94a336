import t from 'tap';
import { loadConfig } from '../../src/core/config.js';
import { parseContacts } from '../../src/core/mqtt-settings.js';
import { tempDir } from '../helpers/paths.js';

t.test('MQTT is off unless the URL is set', async (t) => {
  const home = tempDir(t);
  t.equal(loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_CONTACTS: 'Alice:+15551234567' }).mqtt, undefined);
});

t.test('defaults and values', async (t) => {
  const home = tempDir(t);
  t.same(loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_URL: 'mqtt://broker.lan' }).mqtt, {
    url: 'mqtt://broker.lan',
    username: undefined,
    password: undefined,
    prefix: 'sms-gateway',
    gatewayId: undefined,
    contacts: [],
    discovery: true,
    shareSecret: undefined,
  });
  const c = loadConfig({
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MQTT_URL: ' mqtts://u:p@broker.lan:8883 ',
    SMS_GATEWAY_MQTT_USERNAME: 'gw',
    SMS_GATEWAY_MQTT_PASSWORD: 'pw',
    SMS_GATEWAY_MQTT_PREFIX: 'sms',
    SMS_GATEWAY_ID: 'kitchen-phone',
    SMS_GATEWAY_MQTT_CONTACTS: 'Alice:+15551234567, Bob Smith:+442071234567',
    SMS_GATEWAY_MQTT_DISCOVERY: 'false',
  }).mqtt!;
  t.equal(c.url, 'mqtts://u:p@broker.lan:8883');
  t.equal(c.prefix, 'sms');
  t.equal(c.gatewayId, 'kitchen-phone');
  t.equal(c.discovery, false);
  t.same(c.contacts, [
    { name: 'Alice', slug: 'alice', number: '+15551234567' },
    { name: 'Bob Smith', slug: 'bob_smith', number: '+442071234567' },
  ]);
});

t.test('bad values stop the start with the variable named, secrets not echoed', async (t) => {
  const home = tempDir(t);
  const bad = (env: Record<string, string>, pattern: RegExp) =>
    t.throws(() => loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_URL: 'mqtt://b', ...env }), {
      name: 'ConfigError',
      message: pattern,
    });
  bad({ SMS_GATEWAY_MQTT_URL: 'http://u:secret@b' }, /^invalid SMS_GATEWAY_MQTT_URL=\(not shown\): must be mqtt:/);
  bad({ SMS_GATEWAY_MQTT_URL: 'not a url secret' }, /SMS_GATEWAY_MQTT_URL=\(not shown\)/);
  bad({ SMS_GATEWAY_MQTT_PREFIX: 'a/b' }, /SMS_GATEWAY_MQTT_PREFIX="a\/b": must be 1 to 64/);
  bad({ SMS_GATEWAY_MQTT_PREFIX: '#' }, /SMS_GATEWAY_MQTT_PREFIX/);
  bad({ SMS_GATEWAY_ID: 'my phone' }, /SMS_GATEWAY_ID="my phone"/);
  bad({ SMS_GATEWAY_MQTT_CONTACTS: 'Alice' }, /SMS_GATEWAY_MQTT_CONTACTS=.*not name:\+number/);
  bad({ SMS_GATEWAY_MQTT_CONTACTS: 'Alice:5551234' }, /international form/);
  bad({ SMS_GATEWAY_MQTT_CONTACTS: 'Al ice:+15551234567,al-ice:+15551234568' }, /same entity name "al_ice"/);
  bad({ SMS_GATEWAY_MQTT_DISCOVERY: 'maybe' }, /SMS_GATEWAY_MQTT_DISCOVERY="maybe": must be true or false/);
});

t.test('SMS_GATEWAY_MQTT_SHARE_SECRET: read trimmed; too short stops the start without repeating it', async (t) => {
  const home = tempDir(t);
  const env = { SMS_GATEWAY_HOME: home, SMS_GATEWAY_MQTT_URL: 'mqtt://b' };
  const secret = 'a-secret-every-phone-shares';
  t.equal(loadConfig({ ...env, SMS_GATEWAY_MQTT_SHARE_SECRET: ` ${secret} ` }).mqtt!.shareSecret, secret);
  t.equal(loadConfig({ ...env, SMS_GATEWAY_MQTT_SHARE_SECRET: '  ' }).mqtt!.shareSecret, undefined, 'blank: none');
  t.throws(() => loadConfig({ ...env, SMS_GATEWAY_MQTT_SHARE_SECRET: 'short-secret' }), {
    name: 'ConfigError',
    message: /^invalid SMS_GATEWAY_MQTT_SHARE_SECRET=\(not shown\): must be at least 16 characters/,
  });
  try {
    loadConfig({ ...env, SMS_GATEWAY_MQTT_SHARE_SECRET: 'short-secret' });
  } catch (err) {
    t.notOk((err as Error).message.includes('short-secret'), 'the value is not repeated');
  }
});

t.test('contacts: empty parts are skipped; a name needs a Latin letter or digit', async (t) => {
  t.same(parseContacts(' , Mum:+15551234567 ,'), [{ name: 'Mum', slug: 'mum', number: '+15551234567' }]);
  t.match(parseContacts('Ωμέγα:+15551234567'), /needs at least one Latin letter/);
  t.same(parseContacts('Zoë:+15551234567'), [{ name: 'Zoë', slug: 'zoe', number: '+15551234567' }]);
});
