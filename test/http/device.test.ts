// GET /api/host/info and GET /api/diagnostics through the real hooks.
import t from 'tap';
import { fakeTermux } from '../helpers/fake-termux.js';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';
import { batteryCheck, telephonyCheck, termuxApiCheck, wifiCheck } from '../../src/status/diagnostics.js';
import type { Snapshot } from '../../src/device/probes.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { VERSION } from '../../src/core/package-root.js';

/** The diagnostics table of docs/api.md: check name -> the fields it lists (in backticks). */
function readmeDiagnosticsTable(): Map<string, string[]> {
  const page = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const start = page.indexOf('## What does diagnostics report?');
  const section = page.slice(start, page.indexOf('\n## ', start));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const m = /^\| `(\w+)` \| (.*?) \|[^|]*\|$/.exec(line);
    // "with MQTT on: ..." (or "with the e-mail intake on") lists fields that exist only while that part is configured.
    if (m)
      rows.set(
        m[1]!,
        [...m[2]!.split(/with (?:MQTT|the e-mail intake) on/)[0]!.matchAll(/`(\w+)`/g)].map((f) => f[1]!),
      );
  }
  return rows;
}

/** Every key at any depth of a JSON value. */
function keysOf(v: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) keysOf(x, into);
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) keysOf(x, into.add(k));
  return into;
}

t.test('no phone: every fact the phone would tell is null; the rest is right', async (t) => {
  const { send, get, key } = await testApp(t, { defaultSim: 1 });
  await send({ to: '12345', message: 'hello' });
  const res = await get('/api/host/info');
  t.equal(res.statusCode, 200);
  const d = res.json().data;
  t.same(
    {
      phoneNumber: d.phoneNumber,
      carrier: d.carrier,
      networkType: d.networkType,
      simState: d.simState,
      roaming: d.roaming,
      simCount: d.simCount,
      sims: d.sims,
      device: d.device,
    },
    {
      phoneNumber: null,
      carrier: null,
      networkType: null,
      simState: null,
      roaming: null,
      // Simulated mode's own two slots (docs/sending.md promises them; sends accept them).
      simCount: 2,
      sims: [
        { slot: 1, carrier: null, state: null },
        { slot: 2, carrier: null, state: null },
      ],
      device: { manufacturer: null, model: null, androidVersion: null },
    },
  );
  t.equal(d.defaultSimSlot, 1);
  t.same(d.counters.allTime, {
    accepted: 1,
    sent: 1,
    failed: 0,
    cancelled: 0,
    queued: 0,
    segments: 1,
    billedSegments: 0,
  });
  t.equal(d.counters.historySize, 1);
  t.equal(d.counters.today.date, '2026-11-21');
  t.equal(d.counters.timeZone, 'UTC');
  t.same(
    { ...d.gateway, uptimeSeconds: typeof d.gateway.uptimeSeconds },
    {
      version: VERSION,
      mode: 'simulated',
      simulation: 'success',
      smsEnabled: true,
      startedAt: '2026-11-21T12:00:00.000Z',
      uptimeSeconds: 'number',
      lanUrls: [],
    },
  );
  t.notMatch(res.body, key);
});

t.test("simulated mode with no phone: every check and field docs/api.md's diagnostics table lists", async (t) => {
  const { get } = await testApp(t, { webhookUrls: ['http://192.168.1.9:9000/hook'] });
  const checks = (await get('/api/diagnostics')).json().data.checks as Record<
    string,
    { status: string; value: unknown }
  >;
  const table = readmeDiagnosticsTable();
  t.ok(table.size >= 12, `the table was found (${table.size} rows)`);
  t.same([...table.keys()].sort(), Object.keys(checks).sort(), 'the same checks, no more, no fewer');
  for (const [name, fields] of table) {
    const keys = keysOf(checks[name]?.value);
    t.same(
      fields.filter((f) => !keys.has(f)),
      [],
      `${name}: every listed field is there`,
    );
  }
  for (const name of ['battery', 'wifi', 'telephony']) {
    t.equal(checks[name]!.status, 'unknown', `${name}: unknown without a phone`);
    t.ok(
      Object.values(checks[name]!.value as object).every((v) => v === null),
      `${name}: every value null`,
    );
  }
});

t.test('real mode, and the phone does not tell its slots: simCount null, no sims invented', async (t) => {
  const { get } = await testApp(t, { runtime: { mode: 'real', simulation: 'none' } });
  const d = (await get('/api/host/info')).json().data;
  t.equal(d.simCount, null);
  t.same(d.sims, []);
});

t.test('the phone number comes from SMS_GATEWAY_PHONE_NUMBER', async (t) => {
  const { get } = await testApp(t, { phoneNumber: '+4915112345678' });
  t.equal((await get('/api/host/info')).json().data.phoneNumber, '+4915112345678');
});

t.test('a healthy fake phone: host info filled, diagnostics ok', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const { get, key } = await testApp(t, {
    probeEnv: fake.env,
    probeTimeoutMs: 5000,
    runtime: { mode: 'real', simulation: 'none' },
  });
  const info = (await get('/api/host/info')).json().data;
  t.equal(info.carrier, 'Telekom.de');
  t.equal(info.networkType, 'lte');
  t.equal(info.simState, 'ready');
  t.equal(info.roaming, false);
  t.equal(info.simCount, 2);
  t.same(
    info.sims,
    [
      { slot: 1, carrier: null, state: null },
      { slot: 2, carrier: null, state: null },
    ],
    'Termux:API describes only the default subscription: per-slot facts stay null with two slots',
  );
  t.same(info.device, { manufacturer: 'Google', model: 'Pixel 6a', androidVersion: '14' });
  const diagRes = await get('/api/diagnostics');
  const diag = diagRes.json().data;
  t.equal(
    diag.status,
    'ok',
    JSON.stringify(Object.entries(diag.checks).filter(([, c]) => (c as { status: string }).status !== 'ok')),
  );
  t.same(Object.keys(diag.checks).sort(), [
    'androidSmsLimit',
    'apiKey',
    'battery',
    'database',
    'disk',
    'mqtt',
    'process',
    'queue',
    'sendBudget',
    'sms',
    'smtp',
    'telephony',
    'termuxApi',
    'webhooks',
    'wifi',
  ]);
  const readAt = '2026-11-21T12:00:00.000Z'; // the fake clock's now: each reading says when it was read
  t.same(diag.checks.battery.value, { level: 87, charging: true, temperatureC: 31.4, health: 'GOOD', readAt });
  t.same(diag.checks.wifi.value, { ssid: 'home-net', ip: '192.168.1.50', rssi: -58, linkSpeedMbps: 433, readAt });
  t.equal(diag.checks.database.value.integrity, 'ok');
  t.equal(diag.checks.termuxApi.value.appInstalled, true);
  t.match(diag.checks.androidSmsLimit.hint, /adb shell settings put global sms_outgoing_check_max_count 60/);
  t.equal(diag.checks.apiKey.value.ageDays, 0);
  t.notMatch(diagRes.body, key, 'never the key');
});

t.test('with every probe hanging, both endpoints answer from the cache while its facts are fresh', async (t) => {
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  const { get, clock, probes } = await testApp(t, { probeEnv: fake.env, probeTimeoutMs: 2000 }); // the healthy round must finish within it on a loaded machine
  t.equal((await get('/api/host/info')).json().data.carrier, 'Telekom.de');
  t.equal((await get('/api/diagnostics')).json().data.checks.battery.value.level, 87);
  for (const name of PHONE_COMMANDS) fake.mode(name, 'hang');
  clock.advance(60_000);
  let roundDone = false;
  const info = get('/api/host/info');
  const diag = get('/api/diagnostics');
  const round = probes.refresh().then(() => (roundDone = true));
  const [i, d] = await Promise.all([info, diag]);
  t.equal(roundDone, false, 'both answered while the probes were still hanging');
  t.equal(i.statusCode, 200);
  t.equal(d.statusCode, 200);
  t.equal(i.json().data.carrier, 'Telekom.de');
  await round;
  const after = (await get('/api/diagnostics')).json().data;
  t.equal(after.checks.termuxApi.status, 'failing');
  t.match(after.checks.termuxApi.hint, /do not answer/);
  t.equal(after.status, 'failing');
});

t.test('sending problems show in diagnostics with the reason hint', async (t) => {
  const { sender } = recordingSender(() => ({ ok: false, reason: 'permission_denied', detail: 'x' }));
  const { send, get } = await testApp(t, { sender });
  await send({ to: '12345', message: 'a' });
  let sms = (await get('/api/diagnostics')).json().data.checks.sms;
  t.equal(sms.status, 'degraded');
  t.equal(sms.value.consecutiveFailures, 1);
  t.equal(sms.value.lastFailureReason, 'permission_denied');
  t.match(sms.hint, /Permissions and allow SMS/);
  await send({ to: '12345', message: 'b' });
  await send({ to: '12345', message: 'c' });
  sms = (await get('/api/diagnostics')).json().data.checks.sms;
  t.equal(sms.status, 'failing');
  t.equal(sms.value.consecutiveFailures, 3);
});

t.test('a database that cannot be written makes diagnostics fail, and recovery clears it', async (t) => {
  const { send, get, db } = await testApp(t);
  db.pragma('query_only = ON');
  await send({ to: '12345', message: 'a' });
  const failing = (await get('/api/diagnostics')).json().data;
  t.equal(failing.checks.database.status, 'failing');
  t.equal(failing.checks.database.value.lastWriteError.code, 'SQLITE_READONLY');
  t.equal(failing.status, 'failing');
  db.pragma('query_only = OFF');
  await send({ to: '12345', message: 'b' });
  t.equal((await get('/api/diagnostics')).json().data.checks.database.status, 'ok');
});

t.test('the key age is never negative, even when the clock is behind the key file', async (t) => {
  const { get, clock } = await testApp(t);
  clock.set(Date.now() - 3 * 86_400_000);
  t.equal((await get('/api/diagnostics')).json().data.checks.apiKey.value.ageDays, 0);
});

t.test('sending switched off degrades the sms check', async (t) => {
  const { get } = await testApp(t, { runtime: { smsEnabled: false } });
  const sms = (await get('/api/diagnostics')).json().data.checks.sms;
  t.equal(sms.status, 'degraded');
  t.match(sms.hint, /SMS_GATEWAY_SMS_ENABLED=false/);
});

const snapWith = (over: Partial<Record<keyof Snapshot, unknown>>): Snapshot => {
  const never = { value: null, last: 'ok', detail: null, checkedAt: 1, ms: 1 };
  const base = {
    telephony: never,
    battery: never,
    wifi: never,
    props: never,
    apiApp: { ...never, value: { installed: true } },
  };
  return { ...base, ...over } as unknown as Snapshot;
};
const st = (value: unknown, last = 'ok') => ({ value, last, detail: null, checkedAt: 1, ms: 1 });

t.test('check rules', async (t) => {
  const bat = (level: number, charging: boolean, temperatureC = 30) =>
    batteryCheck(
      snapWith({ battery: st({ level, charging, temperatureC, status: null, plugged: null, health: null }) }),
    ).status;
  t.equal(bat(50, false), 'ok');
  t.equal(bat(19, false), 'degraded');
  t.equal(bat(9, false), 'failing');
  t.equal(bat(5, true), 'ok', 'charging');
  t.equal(bat(80, true, 46), 'degraded', 'hot');
  t.equal(batteryCheck(snapWith({})).status, 'unknown');
  const tel = (simState: string, roaming = false) =>
    telephonyCheck(
      snapWith({
        telephony: st({
          simState,
          roaming,
          carrier: null,
          networkType: null,
          simCarrier: null,
          simCount: 1,
          dataState: null,
          dataEnabled: null,
        }),
      }),
    );
  t.equal(tel('ready').status, 'ok');
  t.equal(tel('absent').status, 'failing');
  t.match(tel('pin_required').hint, /not ready \(pin_required\)/);
  t.equal(tel('ready', true).status, 'degraded');
  const wifi = (ip: string | null, rssi = -50) =>
    wifiCheck(snapWith({ wifi: st({ ip, rssi, ssid: 'x', linkSpeedMbps: 1, frequencyMhz: 1 }) })).status;
  t.equal(wifi('192.168.1.2'), 'ok');
  t.equal(wifi(null), 'degraded');
  t.equal(wifi('192.168.1.2', -90), 'degraded');
  t.equal(termuxApiCheck(snapWith({ apiApp: st({ installed: false }) }), 'real').status, 'failing');
  t.match(termuxApiCheck(snapWith({ apiApp: st({ installed: false }) }), 'real').hint, /F-Droid/);
  t.equal(termuxApiCheck(snapWith({ battery: st(null, 'permission_denied') }), 'real').status, 'degraded');
  t.match(
    termuxApiCheck(
      snapWith({ telephony: st(null, 'not_found'), battery: st(null, 'not_found'), wifi: st(null, 'not_found') }),
      'real',
    ).hint,
    /pkg install termux-api/,
  );
  t.equal(
    termuxApiCheck(
      snapWith({ telephony: st(null, 'not_found'), battery: st(null, 'not_found'), wifi: st(null, 'not_found') }),
      'simulated',
    ).status,
    'unknown',
  );
  t.equal(termuxApiCheck(snapWith({}), 'real').status, 'ok');
});
