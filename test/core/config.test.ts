import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { ConfigError, inboxWatcherEnabled, loadConfig } from '../../src/core/config.js';
import { DEFAULT_OPT_IN_REPLY, DEFAULT_OPT_OUT_REPLY } from '../../src/core/opt-out-settings.js';
import { tempDir } from '../helpers/paths.js';

t.test('defaults', async (t) => {
  const home = tempDir(t);
  const c = loadConfig({ SMS_GATEWAY_HOME: home });
  t.same(c, {
    home,
    mode: undefined,
    simulation: 'success',
    smsEnabled: true,
    defaultSim: 1,
    phoneNumber: undefined,
    sendTimeoutMs: 30_000,
    webhookUrls: [],
    inbox: false,
    inboxPollMs: 30_000,
    replyWindowHours: 24,
    queueRate: 30,
    quietHours: undefined,
    smsgatePingMinutes: 15,
    logLevel: 'info',
    mqtt: undefined,
    optOut: { enabled: false, optOutReply: DEFAULT_OPT_OUT_REPLY, optInReply: DEFAULT_OPT_IN_REPLY, helpReply: '' },
    contacts: [],
  });
  t.equal(loadConfig({ HOME: '/nonexistent' }).home, join(homedir(), '.sms-gateway'));
});

t.test('contacts: SMS_GATEWAY_CONTACTS, its old name SMS_GATEWAY_MQTT_CONTACTS, the new one winning', async (t) => {
  const home = tempDir(t);
  const alice = { name: 'Alice', slug: 'alice', number: '+15550100001' };
  const bob = { name: 'Bob Smith', slug: 'bob_smith', number: '+15550100002' };
  t.same(
    loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_CONTACTS: 'Alice:+15550100001' }).contacts,
    [alice],
    'without MQTT',
  );
  const old = loadConfig({
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MQTT_CONTACTS: 'Alice:+15550100001',
    SMS_GATEWAY_MQTT_URL: 'mqtt://broker.lan',
  });
  t.same(old.contacts, [alice], 'the old name still works');
  t.same(old.mqtt?.contacts, [alice], 'and MQTT has them');
  const both = loadConfig({
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_CONTACTS: 'Bob Smith:+15550100002',
    SMS_GATEWAY_MQTT_CONTACTS: 'Alice:+15550100001',
    SMS_GATEWAY_MQTT_URL: 'mqtt://broker.lan',
  });
  t.same(both.contacts, [bob], 'the new name wins');
  t.same(both.mqtt?.contacts, [bob], 'for MQTT too');
  t.throws(
    () => loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_CONTACTS: 'Alice' }),
    /SMS_GATEWAY_CONTACTS.*name:\+number/,
  );
});

t.test('opt-out: the switch, the answers, empty = none, too long refused', async (t) => {
  const home = tempDir(t);
  const c = loadConfig({
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_OPT_OUT: 'true',
    SMS_GATEWAY_OPT_OUT_REPLY: '',
    SMS_GATEWAY_OPT_IN_REPLY: ' Welcome back ',
    SMS_GATEWAY_HELP_REPLY: 'ACME alarms',
  });
  t.same(c.optOut, { enabled: true, optOutReply: '', optInReply: 'Welcome back', helpReply: 'ACME alarms' });
  t.throws(
    () => loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_HELP_REPLY: 'x'.repeat(481) }),
    /SMS_GATEWAY_HELP_REPLY.*at most 480/,
  );
  t.equal(
    inboxWatcherEnabled({ inbox: false, webhookUrls: [], optOut: c.optOut }),
    true,
    'keywords need the inbox read',
  );
});

t.test('values are parsed', async (t) => {
  const home = tempDir(t);
  const c = loadConfig({
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MODE: 'Simulated',
    SMS_GATEWAY_SIMULATION: 'random',
    SMS_GATEWAY_SMS_ENABLED: 'false',
    SMS_GATEWAY_DEFAULT_SIM: '2',
    SMS_GATEWAY_PHONE_NUMBER: ' +15551234567 ',
    SMS_GATEWAY_SEND_TIMEOUT_SECONDS: '5',
    SMS_GATEWAY_WEBHOOK_URLS: 'http://192.168.1.5:8123/hook, https://example.org/x',
    SMS_GATEWAY_INBOX_POLL_SECONDS: '60',
    SMS_GATEWAY_REPLY_WINDOW_HOURS: '0',
    SMS_GATEWAY_INBOX: ' Yes ',
    SMS_GATEWAY_QUEUE_RATE: '12',
    SMS_GATEWAY_QUIET_HOURS: '22:30-06:15',
    SMS_GATEWAY_PING_MINUTES: '5',
    LOG_LEVEL: 'warn',
  });
  t.equal(c.mode, 'simulated');
  t.equal(c.simulation, 'random');
  t.equal(c.smsEnabled, false);
  t.equal(c.defaultSim, 2);
  t.equal(c.phoneNumber, '+15551234567');
  t.equal(c.sendTimeoutMs, 5000);
  t.same(c.webhookUrls, ['http://192.168.1.5:8123/hook', 'https://example.org/x']);
  t.equal(c.inboxPollMs, 60_000);
  t.equal(c.replyWindowHours, 0, '0 switches replies off');
  t.equal(c.inbox, true);
  t.equal(c.queueRate, 12);
  t.same(c.quietHours, { startMinute: 1350, endMinute: 375, text: '22:30-06:15' });
  t.equal(c.smsgatePingMinutes, 5);
  t.equal(loadConfig({ SMS_GATEWAY_HOME: home }).smsgatePingMinutes, 15, 'SMSGate ping: 15 minutes by default');
  t.equal(c.logLevel, 'warn');
});

t.test('an invalid value is a ConfigError naming the variable', async (t) => {
  const home = tempDir(t);
  const bad: Record<string, string> = {
    SMS_GATEWAY_MODE: 'fake',
    SMS_GATEWAY_SIMULATION: 'sometimes',
    SMS_GATEWAY_SMS_ENABLED: 'maybe',
    SMS_GATEWAY_DEFAULT_SIM: '0',
    SMS_GATEWAY_SEND_TIMEOUT_SECONDS: '1.5',
    SMS_GATEWAY_WEBHOOK_URLS: 'ftp://x.y/z',
    SMS_GATEWAY_INBOX_POLL_SECONDS: '-1',
    SMS_GATEWAY_REPLY_WINDOW_HOURS: '721',
    SMS_GATEWAY_INBOX: 'sometimes',
    SMS_GATEWAY_QUEUE_RATE: '61',
    SMS_GATEWAY_QUIET_HOURS: '10pm-7am',
    SMS_GATEWAY_PING_MINUTES: '0',
    LOG_LEVEL: 'loud',
  };
  for (const [name, value] of Object.entries(bad)) {
    t.throws(() => loadConfig({ SMS_GATEWAY_HOME: home, [name]: value }), ConfigError, name);
    t.throws(() => loadConfig({ SMS_GATEWAY_HOME: home, [name]: value }), new RegExp(`^invalid ${name}=`), name);
  }
});

t.test('$SMS_GATEWAY_HOME/.env is read; the environment wins', async (t) => {
  const home = tempDir(t);
  writeFileSync(
    join(home, '.env'),
    '# comment\nSMS_GATEWAY_DEFAULT_SIM=2\nLOG_LEVEL="debug"\nSMS_GATEWAY_HOME=/elsewhere\n',
  );
  const c = loadConfig({ SMS_GATEWAY_HOME: home, LOG_LEVEL: 'error' });
  t.equal(c.defaultSim, 2);
  t.equal(c.logLevel, 'error');
  t.equal(c.home, home, 'the home cannot move itself');
  writeFileSync(join(home, '.env'), 'SMS_GATEWAY_DEFAULT_SIM=nine\n');
  t.throws(() => loadConfig({ SMS_GATEWAY_HOME: home }), /SMS_GATEWAY_DEFAULT_SIM/);
});

t.test('SMS_GATEWAY_INBOX is a strict boolean', async (t) => {
  const home = tempDir(t);
  for (const v of ['true', '1', 'on', 'YES'])
    t.equal(loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_INBOX: v }).inbox, true, v);
  for (const v of ['false', '0', 'off', 'no', '', '  '])
    t.equal(loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_INBOX: v }).inbox, false, JSON.stringify(v));
  for (const v of ['ja', 'truee', '2'])
    t.throws(
      () => loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_INBOX: v }),
      /^invalid SMS_GATEWAY_INBOX=.*must be true or false/,
      v,
    );
});

t.test('the inbox watcher runs with a webhook target (env or API) or SMS_GATEWAY_INBOX=true', async (t) => {
  t.equal(inboxWatcherEnabled({ webhookUrls: [], inbox: false }), false);
  t.equal(inboxWatcherEnabled({ webhookUrls: [], inbox: false }, 0), false);
  t.equal(inboxWatcherEnabled({ webhookUrls: [], inbox: true }), true);
  t.equal(inboxWatcherEnabled({ webhookUrls: ['http://192.168.1.5/hook'], inbox: false }), true);
  t.equal(inboxWatcherEnabled({ webhookUrls: [], inbox: false }, 1), true);
});

t.test(
  'SMS_GATEWAY_WEBHOOK_URLS: the rule of POST /api/webhooks; the error shows no path, query or login',
  async (t) => {
    const home = tempDir(t);
    const load = (v: string) => loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_WEBHOOK_URLS: v });
    t.same(load('http://192.168.1.5:8123/api/webhook/abc?x=1').webhookUrls, [
      'http://192.168.1.5:8123/api/webhook/abc?x=1',
    ]);
    let message = '';
    try {
      load('https://user:pa55word@hooks.example.net/secret-path?token=t0k');
    } catch (err) {
      message = (err as Error).message;
    }
    t.match(message, /must not carry user:password@/, 'credentials in the URL are refused, as over the API');
    t.match(message, /https:\/\/hooks\.example\.net/);
    for (const secret of ['pa55word', 'secret-path', 't0k', 'user:pa55'])
      t.notOk(message.includes(secret), `no ${secret} in the error`);
  },
);
