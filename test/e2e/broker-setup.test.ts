// The docs' broker setup, end to end: the real Mosquitto started with exactly the password
// file, ACL and listener lines of docs/mqtt.md (read from its `file=` blocks, so the docs
// cannot drift), the real `sms-gateway start` with the docs' .env lines, and the docs'
// other logins. Home Assistant (a stand-in client with its login) sees the discovery configs,
// sends the "reply 1 to disarm" alarm text on the topic home-assistant.md's automation uses
// and a notify message, and gets the reply as a `received` event; the admin subscriber sees
// the events; the alarm panel sends to one phone and to the shared topic; what the ACL
// forbids is refused (PUBACK 135), and anonymous logins are refused.
import t, { type Test } from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mqtt, { type MqttClient } from 'mqtt';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { freePort, MOSQUITTO, noBroker, waitFor, type Heard } from '../mqtt/broker.js';

const DOCS_HOST = '192.168.1.10:1883';
const PHONE = 'sms-gateway/phone1';
const QOS1 = { qos: 1 } as const;
const FILES = ['.env', '/etc/mosquitto/acl', '/etc/mosquitto/conf.d/lan.conf', '/etc/mosquitto/passwd'];

/** The `file=` blocks of a page, by name (```text file=/etc/mosquitto/acl). */
function fileBlocks(page: string): Map<string, string> {
  const text = readFileSync(join(ROOT, page), 'utf8');
  return new Map([...text.matchAll(/^```\w* file=(\S+)\n([\s\S]*?)^```$/gm)].map((m) => [m[1]!, m[2]!]));
}

/** Each login's password, from the docs' password file (before mosquitto_passwd hashes it). */
function passwords(passwd: string): Map<string, string> {
  const lines = passwd.trim().split('\n');
  return new Map(lines.map((l) => l.split(':') as [string, string]));
}

interface Client {
  client: MqttClient;
  heard: Heard[];
}

async function login(t: Test, url: string, username: string, password: string, filters: string[]): Promise<Client> {
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, username, password, reconnectPeriod: 0 });
  t.teardown(() => client.endAsync(true));
  const heard: Heard[] = [];
  client.on('message', (topic, body, { retain, qos }) => heard.push({ topic, payload: body.toString(), retain, qos }));
  if (filters.length > 0) {
    const granted = await client.subscribeAsync(filters, QOS1);
    const asked = filters.map((f) => [f, 1]);
    t.same(
      granted.map((g) => [g.topic, g.qos]),
      asked,
      `${username} may read ${filters.join(' ')}`,
    );
  }
  return { client, heard };
}

function readLog(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

/** Mosquitto with the docs' lan.conf, its listener moved to 127.0.0.1:<port>, its files in `dir`. */
async function docsBroker(t: Test, files: Map<string, string>, dir: string): Promise<string> {
  const port = await freePort();
  const paths = new Map<string, string>();
  for (const [name, text] of files) {
    if (!name.startsWith('/etc/mosquitto/') || name.endsWith('.conf')) continue;
    const local = join(dir, name.split('/').at(-1)!);
    writeFileSync(local, text, { mode: 0o600 });
    paths.set(name, local);
  }
  const passwd = paths.get('/etc/mosquitto/passwd')!;
  const hashed = spawnSync('/usr/bin/mosquitto_passwd', ['-U', passwd], { encoding: 'utf8' });
  t.equal(hashed.status, 0, `mosquitto_passwd -U, as the docs say: ${hashed.stderr}`);
  let conf = files.get('/etc/mosquitto/conf.d/lan.conf')!.replace(/^listener 1883$/m, `listener ${port} 127.0.0.1`);
  for (const [name, local] of paths) conf = conf.replaceAll(name, local);
  // Test-only: no persistence, a log to show on failure, and (started as root) no switch to
  // the mosquitto user, who could not read this temp dir.
  const log = join(dir, 'mosquitto.log');
  const testLines = ['persistence false', `log_dest file ${log}`, 'log_type all', 'user root'];
  writeFileSync(join(dir, 'mosquitto.conf'), `${conf}${testLines.join('\n')}\n`);
  const proc = spawn(MOSQUITTO, ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
  const gone = new Promise((r) => proc.once('exit', r));
  t.teardown(async () => {
    if (proc.exitCode === null) proc.kill('SIGKILL');
    await gone;
  });
  const listening = () => readLog(log).includes(`listen socket on port ${port}`);
  await waitFor(() => proc.exitCode !== null || listening(), 'mosquitto to listen');
  t.equal(proc.exitCode, null, 'mosquitto runs with the docs files');
  t.teardown(() => {
    if (!t.passing()) t.comment(readLog(log).slice(-4000));
  });
  return `mqtt://127.0.0.1:${port}`;
}

/** The messages of the sms.sent (or other) events a client heard from the phone. */
function events(c: Client, type: string): { to: string; body: string }[] {
  const heard = c.heard.filter((h) => h.topic === `${PHONE}/events/${type}`);
  return heard.map((h) => JSON.parse(h.payload).data);
}

/** The phone: exactly the docs' .env lines in its home, the broker's address made this one's. */
async function docsPhone(t: Test, dotEnv: string, dir: string, url: string): Promise<NodeJS.ProcessEnv> {
  t.match(dotEnv, DOCS_HOST, 'the .env names the broker the docs name');
  const home = join(dir, 'home');
  mkdirSync(home, { mode: 0o700 });
  writeFileSync(join(home, '.env'), dotEnv.replaceAll(DOCS_HOST, url.slice('mqtt://'.length)), { mode: 0o600 });
  const env = { ...process.env, SMS_GATEWAY_HOME: home, SMS_GATEWAY_INBOX_POLL_SECONDS: '1' };
  await startGateway(t, { ...env, PATH: '/usr/local/bin:/usr/bin:/bin' }, '127.0.0.61');
  return env;
}

const sent = (c: Client, body: string) => () => events(c, 'sms.sent').some((m) => m.body === body);
const online = (c: Client) => c.heard.some((h) => h.topic === `${PHONE}/availability` && h.payload === 'online');

t.test("the docs' broker setup: the phone, Home Assistant, admin and an application", { skip: noBroker }, async (t) => {
  await holdPort8080(t);
  const files = fileBlocks('docs/mqtt.md');
  t.same([...files.keys()].sort(), FILES, 'the files of the setup');
  const dir = tempDir(t, 'smsgw-docs-broker-');
  const url = await docsBroker(t, files, dir);
  const pass = passwords(files.get('/etc/mosquitto/passwd')!);

  const anonymous = mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  await t.rejects(anonymous, /Not authorized|Bad User Name or Password/, 'no anonymous login');
  const admin = await login(t, url, 'admin', pass.get('admin')!, ['sms-gateway/#', 'homeassistant/#']);
  const ha = await login(t, url, 'homeassistant', pass.get('homeassistant')!, ['homeassistant/#', 'sms-gateway/#']);
  await t.resolves(ha.client.publishAsync('homeassistant/status', 'online', QOS1), 'Home Assistant says it is online');
  const panel = await login(t, url, 'alarm-panel', pass.get('alarm-panel')!, ['sms-gateway/+/errors']);
  const env = await docsPhone(t, files.get('.env')!, dir, url);

  await waitFor(() => online(ha) && online(admin), 'the phone online, seen by Home Assistant and admin');
  const alice = (h: Heard) => /^homeassistant\/notify\/.*\/config$/.test(h.topic) && /"SMS Alice"/.test(h.payload);
  await waitFor(() => ha.heard.some(alice), "Home Assistant's notify entity for Alice (SMS_GATEWAY_CONTACTS)");
  // The broker hands the retained config to each subscriber in its own time: wait for admin's copy too.
  await waitFor(() => admin.heard.some(alice), 'admin sees the configs');
  t.ok(admin.heard.some(alice), 'admin sees the configs');

  // Home Assistant's alarm automation: mqtt.publish on the send topic home-assistant.md uses.
  const haDoc = readFileSync(join(ROOT, 'docs/home-assistant.md'), 'utf8');
  const sendTopics = [...new Set([...haDoc.matchAll(/^\s*topic: (\S+)$/gm)].map((m) => m[1]!))];
  t.same(sendTopics, [`${PHONE}/send`], "the automations' send topic");
  const text = 'Alarm at home (21:03). Reply 1 to disarm.';
  const alarm = JSON.stringify({ to: '+15551234567', message: text, tags: { alarm: 'home' }, id: 'alarm-1' });
  await t.resolves(ha.client.publishAsync(sendTopics[0]!, alarm, QOS1), 'Home Assistant may send');
  await waitFor(sent(ha, text), 'the alarm text sent', 20_000);

  spawnSync(process.execPath, [CLI, 'simulate', 'receive', '--from', '+15551234567', '1'], { env });
  const received = () => ha.heard.filter((h) => h.topic === `${PHONE}/received`).map((h) => JSON.parse(h.payload));
  await waitFor(() => received().length > 0, 'the reply as a received event', 20_000);
  const reply = { event_type: 'reply', from: '+15551234567', contact: 'Alice', body: '1' };
  t.match(received()[0], { ...reply, inReplyTo: { tags: { alarm: 'home' } } }, 'the reply to the alarm text');
  await waitFor(() => admin.heard.some((h) => h.topic === `${PHONE}/events/sms.received`), 'admin sees the event');

  // A notify entity, the application's send to this phone (the docs' mosquitto_pub) and to any phone.
  await t.resolves(ha.client.publishAsync(`${PHONE}/notify/alice`, 'Front door open', QOS1), 'notify');
  const garage = JSON.stringify({ to: '+15551234567', message: 'Garage door open', id: 'garage-2026-11-22T21:00' });
  const anyPhone = JSON.stringify({ to: '+15557654321', message: 'To any phone' });
  await t.resolves(panel.client.publishAsync(`${PHONE}/send`, garage, QOS1), 'to phone1');
  await t.resolves(panel.client.publishAsync('sms-gateway/send', anyPhone, QOS1), 'to any phone');
  for (const body of ['Front door open', 'Garage door open', 'To any phone']) {
    await waitFor(sent(admin, body), `"${body}" sent`, 20_000);
  }
  t.same(panel.heard, [], 'no send was refused');

  // What the ACL forbids: PUBACK 135 (not authorized), nothing taken.
  const refused = /Not authorized/;
  await t.rejects(admin.client.publishAsync(`${PHONE}/send`, garage, QOS1), refused, 'admin sends nothing');
  const offline = panel.client.publishAsync(`${PHONE}/availability`, 'offline', QOS1);
  await t.rejects(offline, refused, 'only the phone says it is online');
  const fake = ha.client.publishAsync('homeassistant/notify/phone1/alice/config', '{}', QOS1);
  await t.rejects(fake, refused, 'only the phone writes a config');
});
