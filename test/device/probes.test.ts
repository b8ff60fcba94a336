import t from 'tap';
import { createProbes, FACT_MAX_AGE_MS } from '../../src/device/probes.js';
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
    simCountry: 'DE',
    simCount: 2,
    roaming: false,
    dataState: 'connected',
    dataEnabled: true,
  });
  t.same(parseBattery(JSON.parse(BATTERY)), {
    level: 87,
    charging: true,
    status: 'CHARGING',
    plugged: 'PLUGGED_AC',
    temperatureC: 31.4,
    health: 'GOOD',
  });
  t.same(parseWifi(JSON.parse(WIFI)), {
    ssid: 'home-net',
    ip: '192.168.1.50',
    rssi: -58,
    linkSpeedMbps: 433,
    frequencyMhz: 5180,
  });
  t.same(parseProps(GETPROP), {
    manufacturer: 'Google',
    model: 'Pixel 6a',
    androidVersion: '14',
    sdk: 34,
    timeZone: 'Pacific/Auckland',
  });
});

t.test('parsers never invent: missing, odd or placeholder values are null', async (t) => {
  t.same(parseTelephony({}), {
    carrier: null,
    networkType: null,
    simState: null,
    simCarrier: null,
    simCountry: null,
    simCount: null,
    roaming: null,
    dataState: null,
    dataEnabled: null,
  });
  t.same(
    parseTelephony({ phone_count: 0, data_enabled: 'maybe', network_roaming: 'no', network_operator_name: '' })
      .simCount,
    null,
  );
  t.equal(parseTelephony({ data_enabled: 'false' }).dataEnabled, false, 'data_enabled is a string');
  t.same(parseBattery({}), {
    level: null,
    charging: null,
    status: null,
    plugged: null,
    temperatureC: null,
    health: null,
  });
  t.equal(
    parseBattery({ level: 41, scale: 50, status: 'DISCHARGING', plugged: 'UNPLUGGED' }).level,
    82,
    'no percentage: level/scale',
  );
  t.equal(parseBattery({ status: 'DISCHARGING', plugged: 'UNPLUGGED' }).charging, false);
  t.equal(parseBattery({ temperature: 27.200000762939453 }).temperatureC, 27.2);
  t.same(parseWifi({ API_ERROR: 'No current connection' }), {
    ssid: null,
    ip: null,
    rssi: null,
    linkSpeedMbps: null,
    frequencyMhz: null,
  });
  t.same(parseWifi({ ssid: '<unknown ssid>', ip: '0.0.0.0' }).ssid, null, 'no location permission');
  t.equal(parseWifi({ ip: '0.0.0.0' }).ip, null, 'Wi-Fi off');
  t.same(parseProps('garbage\n[only.key]'), {
    manufacturer: null,
    model: null,
    androidVersion: null,
    sdk: null,
    timeZone: null,
  });
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

t.test(
  "with every probe hanging: an ask past a fact's max age waits at most the timeout, once per pause",
  async (t) => {
    const fake = fakeTermux(t, PHONE_COMMANDS);
    healthyPhone(fake);
    const clock = fakeClock();
    // 2 s, not less: the healthy first round runs shell scripts, which a loaded CI machine
    // has taken over 300 ms to answer (a timeout there is not what this test is about).
    const probes = createProbes({ clock, env: fake.env, timeoutMs: 2000 });
    const first = await probes.get();
    t.equal(first.telephony.last, 'ok');
    for (const name of PHONE_COMMANDS) fake.mode(name, 'hang');
    clock.advance(60_000);
    const young = await probes.get();
    t.equal(fake.calls('termux-battery-status').length, 1, 'every fact fresh: nothing read, nothing waited for');
    t.equal(young.telephony.value?.carrier, 'Telekom.de');
    clock.advance(FACT_MAX_AGE_MS.battery);
    const aged = await probes.get();
    t.equal(aged.battery.last, 'timeout', 'the aged battery was read again: the hang is reported as such');
    t.equal(aged.battery.value, null, 'its 6-minute-old reading is not shown');
    t.equal(probes.known().battery.value?.level, 87, 'but kept as last read');
    t.equal(aged.telephony.last, 'ok', 'telephony is fresh for 30 minutes: not read');
    t.equal(aged.telephony.value?.carrier, 'Telekom.de');
    const calls = fake.calls('termux-battery-status').length;
    await probes.get();
    t.equal(
      fake.calls('termux-battery-status').length,
      calls,
      'within the pause after a failed read, an ask reads nothing and waits for nothing',
    );
  },
);

t.test("a failed read is tried again after a pause that doubles, at most the fact's max age", async (t) => {
  const clock = fakeClock();
  const tries: number[] = [];
  const run = async (command: string) => {
    if (command === 'termux-battery-status') tries.push(clock.monotonicMs());
    return { ok: false as const, failure: 'permission_denied' as const, detail: 'no', ms: 1 };
  };
  const probes = createProbes({ clock, run });
  for (let i = 0; i < 30; i++) {
    await probes.get(['battery']);
    await clock.tick(15_000);
  }
  const gaps = tries.slice(1).map((at, i) => at - tries[i]!);
  t.same(gaps, [60_000, 120_000, 240_000], 'after 1, 2, 4 minutes (a scrape every 15 s)');
  probes.invalidate(['battery']);
  await probes.get(['battery']);
  t.equal(tries.length, 5, 'invalidated: read at the next ask, pause or not');
});

t.test('concurrent askers share one read per fact', async (t) => {
  const clock = fakeClock();
  const answers: Array<() => void> = [];
  let runs = 0;
  const run = (command: string) => {
    runs++;
    return new Promise<{ ok: true; stdout: string; json: unknown; ms: number }>((res) =>
      answers.push(() =>
        res({ ok: true, stdout: '{}', json: command === 'termux-battery-status' ? { percentage: 50 } : {}, ms: 1 }),
      ),
    );
  };
  const probes = createProbes({ clock, run });
  const asks = [probes.get(), probes.get(['battery', 'wifi']), probes.get(['battery']), probes.refresh(['battery'])];
  probes.peek(['battery']);
  t.equal(runs, 5, 'one read of each of the five facts');
  for (const answer of answers) answer();
  await Promise.all(asks);
  t.equal((await probes.get(['battery'])).battery.value?.level, 50);
  t.equal(runs, 5);
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

t.test('start(afterMs) reads getprop alone that much later; known() and shown() never read', async (t) => {
  const clock = fakeClock();
  const ran: string[] = [];
  const run = async (command: string) => {
    ran.push(command);
    return { ok: true as const, stdout: 'x', json: undefined, ms: 1 };
  };
  const probes = createProbes({ clock, run, env: { PATH: '' } });
  probes.start(1000);
  t.same(ran, [], 'nothing spawned at start');
  probes.known();
  await clock.tick(999);
  t.same(ran, [], 'known() started nothing');
  await clock.tick(1);
  t.same(ran, ['getprop'], "getprop at 1 s (the phone's time zone), no Termux:API fact");
  await clock.tick(3_600_000);
  probes.known();
  probes.shown();
  await clock.tick(0);
  t.same(ran, ['getprop'], 'an hour on, nothing read on a timer; known() and shown() read nothing');
  probes.peek(['battery']);
  await clock.tick(0);
  t.same(ran, ['getprop', 'termux-battery-status'], 'peek() reads the facts it is asked for');

  const early = createProbes({ clock, run, env: { PATH: '' } });
  early.start(1000);
  await early.get(['props']);
  t.equal(ran.length, 3, 'an ask before the timer reads getprop itself');
  await clock.tick(1000);
  t.equal(ran.length, 3, 'and the timer adds none');
});

t.test('an ask waits for a read in flight of a fact it has no reading of yet', async (t) => {
  const clock = fakeClock();
  const pending: Array<() => void> = [];
  const run = async (command: string) =>
    command === 'getprop'
      ? new Promise<{ ok: true; stdout: string; json: undefined; ms: number }>((res) =>
          pending.push(() => res({ ok: true, stdout: '[ro.product.model]: [Pixel 6a]\n', json: undefined, ms: 1 })),
        )
      : { ok: true as const, stdout: '{}', json: {}, ms: 1 };
  const probes = createProbes({ clock, run, env: { PATH: '' } });
  probes.start(); // getprop (a slow phone under load) does not answer yet
  await clock.tick(0);
  t.equal(probes.known().props.last, 'never');
  let answered = false;
  const got = probes.get().then((s) => {
    answered = true;
    return s;
  });
  await clock.tick(0);
  t.equal(answered, false, 'the ask waits for the read still running');
  t.equal(probes.known().telephony.last, 'ok', 'the facts it started itself have answered');
  pending[0]!();
  t.equal((await got).props.value?.model, 'Pixel 6a', 'and answers with its fact, not null');
});
