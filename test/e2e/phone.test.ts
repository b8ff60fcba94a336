// The real gateway with a fake phone on PATH: host info, diagnostics, stats in the
// phone's own time zone, and `sms-gateway status` for a healthy and a broken phone.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';

const status = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [CLI, 'status'], { env, encoding: 'utf8', timeout: 20_000 });

t.test('status says down when nothing runs', async (t) => {
  await holdPort8080(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: tempDir(t) };
  t.equal(
    spawnSync(process.execPath, [CLI, 'key', 'rotate'], { env }).status,
    0,
    'a home with its key (status never makes one)',
  );
  const r = status(env);
  t.equal(r.status, 1);
  t.match(r.stdout, /^sms-gateway is DOWN/);
});

t.test('a fake phone on PATH: healthy, then failing to send', async (t) => {
  await holdPort8080(t);
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const env: NodeJS.ProcessEnv = {
    ...fake.env,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_PHONE_NUMBER: '+64211234567',
  };
  delete env.TZ;
  const caller = '127.0.0.6';
  await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const auth = { authorization: `Bearer ${key}` };

  const info = JSON.parse((await httpGet('/api/host/info', auth, caller)).body).data;
  t.equal(info.phoneNumber, '+64211234567');
  t.equal(info.carrier, 'Telekom.de');
  t.equal(info.simCount, 2);
  t.equal(info.gateway.mode, 'real');
  t.same(info.device, { manufacturer: 'Google', model: 'Pixel 6a', androidVersion: '14' });
  const stats = JSON.parse((await httpGet('/api/stats', auth, caller)).body).data;
  t.equal(stats.timeZone, 'Pacific/Auckland', "the phone's zone from getprop when TZ is unset");

  const healthy = status(env);
  t.equal(healthy.status, 0, healthy.stderr);
  const otherHome = { ...env, SMS_GATEWAY_HOME: tempDir(t) };
  t.equal(
    spawnSync(process.execPath, [CLI, 'key', 'rotate'], { env: otherHome }).status,
    0,
    'another home with its own key',
  );
  t.equal(status(otherHome).status, 2, 'another home: the key is refused, exit 2');
  t.match(healthy.stdout, /^sms-gateway \d+\.\d+\.\d+ is up \(real mode\), OK\n/);
  t.match(healthy.stdout, /Every check is ok\./);
  t.match(healthy.stdout, /Today: {2}0 sent, 0 failed, 0 queued, 0 segments billed \(Pacific\/Auckland\)/);

  // simSlot 2 exists on this phone (phone_count 2) and reaches termux-sms-send as -s 1.
  const sent = await httpGet(
    '/api/sms/send',
    { ...auth, 'content-type': 'application/json' },
    caller,
    'POST',
    JSON.stringify({ to: '+64 21 765 4321', message: 'kia ora', simSlot: 2 }),
  );
  t.equal(sent.status, 200, sent.body);
  t.same(fake.calls('termux-sms-send')[0]!.argv, ['-n', '+64217654321', '-s', '1']);
  t.equal(fake.calls('termux-sms-send')[0]!.stdin.toString(), 'kia ora');

  // Break the phone: sending fails three times in a row (permission taken away).
  fake.mode('termux-sms-send', 'permission');
  for (let i = 0; i < 3; i++) {
    await new Promise((r) => setTimeout(r, 1050));
    const res = await httpGet(
      '/api/sms/send',
      { ...auth, 'content-type': 'application/json' },
      caller,
      'POST',
      JSON.stringify({ to: '12345', message: `try ${i}` }),
    );
    t.equal(res.status, 502);
  }
  const broken = status(env);
  t.equal(broken.status, 3, 'up but failing: exit 3, for monitoring scripts');
  t.match(broken.stdout, /is up \(real mode\), FAILING/);
  t.match(broken.stdout, /FAIL sms: Termux:API has no permission to send SMS/);
});

t.test(
  'right after a start, a SIM slot the dual-SIM phone lacks is refused (400), sync and queued: nothing recorded',
  async (t) => {
    await holdPort8080(t);
    const fake = fakeTermux(t, PHONE_COMMANDS);
    healthyPhone(fake);
    const env: NodeJS.ProcessEnv = { ...fake.env, SMS_GATEWAY_HOME: tempDir(t) };
    const caller = '127.0.0.7';
    await startGateway(t, env, caller);
    const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const before = fake.calls('termux-telephony-deviceinfo').length;

    const sync = await httpGet(
      '/api/sms/send',
      headers,
      caller,
      'POST',
      JSON.stringify({ to: '+64 21 765 4321', message: 'x', simSlot: 3 }),
    );
    t.equal(sync.status, 400, sync.body);
    t.match(JSON.parse(sync.body).error.message, /simSlot 3 does not exist; this phone reports 2 SIM slots\./);
    const queued = await httpGet(
      '/api/messages',
      headers,
      caller,
      'POST',
      JSON.stringify({ to: '+64 21 765 4321', message: 'x', simSlot: 3 }),
    );
    t.equal(queued.status, 400, queued.body);
    t.equal(fake.calls('termux-sms-send').length, 0, 'nothing handed off');
    const history = JSON.parse((await httpGet('/api/messages', headers, caller)).body);
    t.equal(history.pagination.total, 0, 'nothing recorded');
    t.equal(
      fake.calls('termux-telephony-deviceinfo').length - before,
      1,
      'the SIM count was read once, for both requests',
    );
  },
);
