import t from 'tap';
import { createProbes } from '../../src/device/probes.js';
import { parseBattery, parseProps, parseTelephony, parseWifi } from '../../src/device/probe-parsers.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { BATTERY, GETPROP, PHONE_COMMANDS, TELEPHONY, WIFI, healthyPhone } from '../fixtures/phone.js';

t.test('parsers read real Termux:API answers', async (t) => {
  t.same(parseTelephony(JSON.parse(TELEPHONY)), {
    carrier: 'Telekom.de',
    networkType: 'lte',
    simState: 'ready',
    simCarrier: 'Telekom',
    simCount: 2,
    roaming: false,
    dataState: 'connected',
    dataEnabled: true,
  });
  t.same(parseBattery(JSON.parse(BATTERY)), { level: 87, charging: true, status: 'CHARGING', plugged: 'PLUGGED_AC', temperatureC: 31.4, health: 'GOOD' });
  t.same(parseWifi(JSON.parse(WIFI)), { ssid: 'home-net', ip: '192.168.1.50', rssi: -58, linkSpeedMbps: 433, frequencyMhz: 5180 });
  t.same(parseProps(GETPROP), { manufacturer: 'Google', model: 'Pixel 6a', androidVersion: '14', sdk: 34, timeZone: 'Pacific/Auckland' });
});

t.test('parsers never invent: missing, odd or placeholder values are null', async (t) => {
  t.same(parseTelephony({}), {
    carrier: null,
    networkType: null,
    simState: null,
    simCarrier: null,
    simCount: null,
    roaming: null,
    dataState: null,
    dataEnabled: null,
  });
  t.same(parseTelephony({ phone_count: 0, data_enabled: 'maybe', network_roaming: 'no', network_operator_name: '' }).simCount, null);
  t.equal(parseTelephony({ data_enabled: 'false' }).dataEnabled, false, 'data_enabled is a string');
  t.same(parseBattery({}), { level: null, charging: null, status: null, plugged: null, temperatureC: null, health: null });
  t.equal(parseBattery({ level: 41, scale: 50, status: 'DISCHARGING', plugged: 'UNPLUGGED' }).level, 82, 'no percentage: level/scale');
  t.equal(parseBattery({ status: 'DISCHARGING', plugged: 'UNPLUGGED' }).charging, false);
  t.equal(parseBattery({ temperature: 27.200000762939453 }).temperatureC, 27.2);
  t.same(parseWifi({ API_ERROR: 'No current connection' }), { ssid: null, ip: null, rssi: null, linkSpeedMbps: null, frequencyMhz: null });
  t.same(parseWifi({ ssid: '<unknown ssid>', ip: '0.0.0.0' }).ssid, null, 'no location permission');
  t.equal(parseWifi({ ip: '0.0.0.0' }).ip, null, 'Wi-Fi off');
  t.same(parseProps('garbage\n[only.key]'), { manufacturer: null, model: null, androidVersion: null, sdk: null, timeZone: null });
  t.same(parseTelephony(null), parseTelephony({}));
  t.same(parseTelephony([1, 2]), parseTelephony({}));
});

t.test('a healthy phone: every probe answers, all in one round', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const probes = createProbes({ clock: fakeClock(), env: fake.env, timeoutMs: 5000 });
  const snap = await probes.get();
  for (const name of ['telephony', 'battery', 'wifi', 'props', 'apiApp'] as const) t.equal(snap[name].last, 'ok', name);
  t.same(snap.apiApp.value, { installed: true });
  t.equal(snap.telephony.value?.simCount, 2);
  t.same(fake.calls('pm')[0]!.argv, ['path', 'com.termux.api']);
});

t.test('permission errors, malformed JSON and a missing app are reported, not invented', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  fake.mode('termux-telephony-deviceinfo', 'permission');
  fake.mode('termux-battery-status', 'garbage');
  fake.mode('termux-wifi-connectioninfo', 'empty');
  fake.mode('pm', 'fail'); // pm exits 1: not installed
  const snap = await createProbes({ clock: fakeClock(), env: fake.env, timeoutMs: 5000 }).get();
  t.equal(snap.telephony.last, 'permission_denied');
  t.match(snap.telephony.detail, /Please grant the following permissions/);
  t.equal(snap.telephony.value, null);
  t.equal(snap.battery.last, 'api_error');
  t.equal(snap.battery.value, null);
  t.equal(snap.wifi.last, 'no_output');
  t.same(snap.apiApp.value, { installed: false });
  t.equal(snap.props.last, 'ok');
});

t.test('with every probe hanging: the first round ends at the timeout; later requests never wait', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const clock = fakeClock();
  // 2 s, not less: the healthy first round runs shell scripts, which a loaded CI machine
  // has taken over 300 ms to answer (a timeout there is not what this test is about).
  const probes = createProbes({ clock, env: fake.env, timeoutMs: 2000, ttlMs: 10_000 });
  const first = await probes.get();
  t.equal(first.telephony.last, 'ok');
  for (const name of PHONE_COMMANDS) fake.mode(name, 'hang');
  clock.advance(20_000); // stale
  let roundDone = false;
  const snap = await probes.get(); // answers from the cache and starts a background round
  const round = probes.refresh().then(() => (roundDone = true));
  t.equal(roundDone, false, 'answered while the background round is still hanging');
  t.equal(snap.telephony.value?.carrier, 'Telekom.de', 'the last known facts are served');
  await round;
  const after = probes.peek();
  t.equal(after.telephony.last, 'timeout', 'the hang is reported as such');
  t.equal(after.telephony.value?.carrier, 'Telekom.de', 'a stale fact is kept, with last=timeout saying so');
});

t.test('a first round that hangs is bounded by the probe timeout', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  for (const name of PHONE_COMMANDS) fake.mode(name, 'hang');
  const probes = createProbes({ clock: fakeClock(), env: fake.env, timeoutMs: 2000 }); // each fake must start its grandchild within it
  const snap = await probes.get();
  for (const name of ['telephony', 'battery', 'wifi', 'props', 'apiApp'] as const) {
    t.equal(snap[name].last, 'timeout', name);
    t.equal(snap[name].value, null, name);
  }
  for (const c of fake.calls('termux-battery-status')) t.ok(c.grandchild);
});

t.test('nothing on PATH: every probe is not_found and every value null', async (t) => {
  const snap = await createProbes({ clock: fakeClock(), env: { PATH: '/nonexistent' } }).get();
  for (const name of ['telephony', 'battery', 'wifi', 'props', 'apiApp'] as const) {
    t.equal(snap[name].last, 'not_found', name);
    t.equal(snap[name].value, null, name);
  }
});

t.test('start(afterMs) runs the first round that much later; known() never starts one', async (t) => {
  const clock = fakeClock();
  let runs = 0;
  const run = async () => {
    runs++;
    return { ok: true as const, stdout: 'x', json: undefined, ms: 1 };
  };
  const probes = createProbes({ clock, run, env: { PATH: '' } });
  probes.start(1000);
  t.equal(runs, 0, 'nothing spawned at start');
  probes.known();
  await clock.tick(999);
  t.equal(runs, 0, 'known() started nothing');
  await clock.tick(1);
  t.equal(runs, 5, 'one round of five probes at 1 s');
  await clock.tick(60_000);
  probes.known();
  await clock.tick(0);
  t.equal(runs, 5, 'stale facts: known() still starts nothing');
  probes.peek();
  await clock.tick(0);
  t.equal(runs, 10, 'peek() refreshes stale facts');

  const early = createProbes({ clock, run, env: { PATH: '' } });
  early.start(1000);
  await early.get();
  t.equal(runs, 15, 'a request before the timer starts the round itself');
  await clock.tick(1000);
  t.equal(runs, 15, 'and the timer adds none');
});

t.test('a request during the first round waits for all of it, not just its first answers', async (t) => {
  const clock = fakeClock();
  const pending: Array<() => void> = [];
  const run = async (command: string) =>
    command === 'getprop'
      ? new Promise<{ ok: true; stdout: string; json: undefined; ms: number }>((res) =>
          pending.push(() => res({ ok: true, stdout: '[ro.product.model]: [Pixel 6a]\n', json: undefined, ms: 1 })),
        )
      : { ok: true as const, stdout: '{}', json: {}, ms: 1 };
  const probes = createProbes({ clock, run, env: { PATH: '' } });
  probes.start();
  await clock.tick(0); // four of five have answered; getprop (a slow phone under load) has not
  t.equal(probes.known().telephony.last, 'ok');
  t.equal(probes.known().props.last, 'never');
  let answered = false;
  const got = probes.get().then((s) => {
    answered = true;
    return s;
  });
  await clock.tick(0);
  t.equal(answered, false, 'the first request waits for the probe still running');
  pending[0]!();
  t.equal((await got).props.value?.model, 'Pixel 6a', 'and answers with its fact, not null');
});
