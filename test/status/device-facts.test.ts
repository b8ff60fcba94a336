// Device facts when someone asks, kept while they are fresh (issue 37, part 2): the gateway
// composed as a start composes it, a fake clock moved through an idle hour, and every
// command the probes run counted at the spawner's seam (probeRun). Battery and Wi-Fi are
// read at most every 5 minutes, telephony every 30 (and again after a failed hand-off),
// nothing at all when nothing asks; diagnostics never show a battery reading older than 5
// minutes, and each reading says when it was read.
import t from 'tap';
import { createProbes } from '../../src/device/probes.js';
import type { RunResult } from '../../src/device/termux.js';
import { createStatePublisher } from '../../src/mqtt/state.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import type { HandoffResult } from '../../src/sms/handoff.js';
import { GETPROP, PM_PATH, TELEPHONY, WIFI } from '../fixtures/phone.js';
import { listen, gatewaySettings, noBroker, startBroker, waitFor } from '../mqtt/broker.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { recordingSender, testApp } from '../helpers/test-app.js';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const real = { mode: 'real' as const, simulation: 'none' as const };

/** A phone that answers every probe at once, counting each command; its battery level and carrier change when the test says. */
function countingPhone() {
  const calls = new Map<string, number>();
  const phone = { level: 80, carrier: 'Telekom.de', batteryFails: false };
  const ok = (stdout: string, json?: unknown): RunResult => ({ ok: true, stdout, json, ms: 1 });
  const answer = (command: string): RunResult => {
    if (command === 'termux-battery-status') {
      return phone.batteryFails
        ? { ok: false, failure: 'timeout', detail: 'no answer within 3000 ms', ms: 3000 }
        : ok('{}', { percentage: phone.level, status: 'CHARGING' });
    }
    if (command === 'termux-telephony-deviceinfo')
      return ok(TELEPHONY, { ...JSON.parse(TELEPHONY), network_operator_name: phone.carrier });
    if (command === 'termux-wifi-connectioninfo') return ok(WIFI, JSON.parse(WIFI));
    if (command === 'getprop') return ok(GETPROP);
    if (command === 'pm') return ok(PM_PATH);
    return { ok: false, failure: 'not_found', detail: `${command}: not found`, ms: 1 };
  };
  const run = async (command: string): Promise<RunResult> => {
    calls.set(command, (calls.get(command) ?? 0) + 1);
    return answer(command);
  };
  const count = (command: string) => calls.get(command) ?? 0;
  const termuxCalls = () => [...calls].filter(([c]) => c.startsWith('termux-')).reduce((sum, [, n]) => sum + n, 0);
  return { run, phone, count, termuxCalls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) };
}

type App = Awaited<ReturnType<typeof testApp>>;
const scrape = (app: App) => app.app.inject({ url: '/metrics', remoteAddress: '192.168.1.30', headers: app.auth });

/** Moves the fake clock through `ms`, a minute at a time (the background work's timers fire on the way). */
async function idle(app: App, ms: number) {
  for (let left = ms; left > 0; left -= MINUTE) await app.clock.tick(Math.min(MINUTE, left));
}

t.test('nothing configured that needs device facts: an idle hour makes no call at all', async (t) => {
  const phone = countingPhone();
  const app = await testApp(t, { runtime: real, probeRun: phone.run, simCount: 'probes' });
  await app.gateway.start();
  await app.clock.tick(2000); // past the start-up read of getprop (the phone's time zone)
  t.equal(phone.termuxCalls(), 0, 'no Termux:API call at start-up');
  t.ok(phone.count('getprop') <= 1, 'getprop at most once at start-up (the time zone of the daily counters)');
  const before = phone.total();
  await idle(app, HOUR);
  t.equal(phone.total(), before, 'no call of any kind in the idle hour');
  t.equal(phone.termuxCalls(), 0, 'no Termux:API call at all');
});

t.test(
  '/metrics scraped every 15 s for an hour: battery and Wi-Fi read at most 12 times each, telephony never',
  async (t) => {
    const phone = countingPhone();
    const app = await testApp(t, { runtime: real, probeRun: phone.run, simCount: 'probes' });
    await app.gateway.start();
    const statuses = new Set<number>();
    // The hour [0, 3600 s): a scrape at 0, 15, ... 3585 s.
    for (let at = 0; at < HOUR; at += 15_000) {
      if (at > 0) await app.clock.tick(15_000);
      const res = await scrape(app);
      statuses.add(res.statusCode);
      if (at === 0) t.match(res.body, /sms_gateway_battery_level_percent 80/, 'the first scrape waits for its reading');
    }
    t.same([...statuses], [200], 'every scrape answered');
    t.ok(
      phone.count('termux-battery-status') <= 12,
      `battery read ${phone.count('termux-battery-status')} times (at most 12)`,
    );
    t.ok(phone.count('termux-battery-status') >= 11, 'and read again when its reading aged (not once for the hour)');
    t.ok(
      phone.count('termux-wifi-connectioninfo') <= 12,
      `Wi-Fi read ${phone.count('termux-wifi-connectioninfo')} times (at most 12)`,
    );
    t.equal(phone.count('termux-telephony-deviceinfo'), 0, 'a scrape needs no telephony');
  },
);

t.test(
  'MQTT (Home Assistant) on and /metrics every 15 s: an idle hour makes at most 12 battery, 12 Wi-Fi, 2 telephony calls',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const phone = countingPhone();
    const app = await testApp(t, {
      runtime: real,
      probeRun: phone.run,
      simCount: 'probes',
      mqtt: { settings: { ...gatewaySettings(broker.url), discovery: true }, gatewayId: 'gw1' },
    });
    const { heard } = await listen(t, broker.url, ['sms-gateway/gw1/state']);
    await app.gateway.start();
    await waitFor(() => app.gateway.mqtt!.bridge.connected(), 'connected');
    await waitFor(
      () => heard.some((h) => JSON.parse(h.payload).status !== null),
      'the first state with the diagnostics',
    );
    const statuses = new Set<number>();
    // The hour [0, 3600 s): the state's first diagnostics at 0, a scrape at 0, 15, ... 3585 s.
    for (let at = 0; at < HOUR; at += 15_000) {
      if (at > 0) await app.clock.tick(15_000);
      statuses.add((await scrape(app)).statusCode);
    }
    t.same([...statuses], [200], 'every scrape answered');
    const battery = phone.count('termux-battery-status');
    const wifi = phone.count('termux-wifi-connectioninfo');
    const telephony = phone.count('termux-telephony-deviceinfo');
    t.ok(battery <= 12 && battery >= 11, `battery read ${battery} times (at most 12)`);
    t.ok(wifi <= 12 && wifi >= 11, `Wi-Fi read ${wifi} times (at most 12)`);
    t.ok(telephony <= 2 && telephony >= 1, `telephony read ${telephony} times (at most 2)`);
  },
);

t.test("Home Assistant's state: a change any read sees is published at once, with no read of its own", async (t) => {
  const phone = countingPhone();
  const clock = fakeClock();
  const probes = createProbes({ clock, run: phone.run });
  const published: Array<{ battery: number | null }> = [];
  const state = createStatePublisher({
    publish: (_topic, payload) => published.push(JSON.parse(payload)) > 0,
    topics: topicsFor('sms-gateway', 'gw1'),
    probes,
    stats: { day: () => ({ sent: 0, failed: 0 }) as never },
    calendar: () => ({ dayOf: () => '2026-11-21' }) as never,
    clock,
    waiting: () => 0,
    diagnostics: async () => ({ status: 'ok', checks: {} }),
  });
  state.start();
  t.teardown(() => state.stop());
  await clock.tick(0);
  t.equal(phone.total(), 0, 'the state reads no device fact itself');
  t.equal(published.length, 0, 'nothing read: nothing published');
  await probes.get(['battery']); // as a /metrics scrape asks
  t.equal(published.at(-1)?.battery, 80, 'the reading is published');
  phone.phone.level = 42;
  await clock.tick(5 * MINUTE - 1);
  const before = published.length;
  await probes.get(['battery']);
  t.equal(published.length, before, 'a fresh reading: nothing read, nothing published');
  await clock.tick(1);
  await probes.get(['battery']);
  t.equal(published.at(-1)?.battery, 42, 'the reading 5 minutes later saw 42 %: published at once');
});

t.test('a failed hand-off makes the next ask read the telephony again', async (t) => {
  const phone = countingPhone();
  let answer: HandoffResult = { ok: true };
  const { sender } = recordingSender(() => answer);
  const app = await testApp(t, { runtime: real, probeRun: phone.run, simCount: 'probes', sender });
  t.equal((await app.get('/api/host/info')).json().data.carrier, 'Telekom.de');
  t.equal(phone.count('termux-telephony-deviceinfo'), 1);
  phone.phone.carrier = 'Vodafone.de'; // the SIM swapped
  t.equal((await app.send({ to: '+15551230001', message: 'goes through' })).statusCode, 200);
  t.equal(
    (await app.get('/api/host/info')).json().data.carrier,
    'Telekom.de',
    'a hand-off that went through reads nothing again',
  );
  t.equal(phone.count('termux-telephony-deviceinfo'), 1);
  answer = { ok: false, reason: 'termux_api_error', detail: 'RESULT_ERROR_GENERIC_FAILURE' };
  await app.send({ to: '+15551230001', message: 'fails' });
  const info = (await app.get('/api/host/info')).json().data;
  t.equal(phone.count('termux-telephony-deviceinfo'), 2, 'read again at the next ask');
  t.equal(info.carrier, 'Vodafone.de', 'and that ask waited for it');
  const diag = (await app.get('/api/diagnostics')).json().data;
  t.equal(diag.checks.telephony.value.carrier, 'Vodafone.de');
  t.equal(phone.count('termux-telephony-deviceinfo'), 2, 'once: the asks after it use the new reading');
});

t.test('diagnostics never show a battery reading older than 5 minutes; readAt says when it was read', async (t) => {
  const phone = countingPhone();
  const app = await testApp(t, { runtime: real, probeRun: phone.run, simCount: 'probes' });
  const battery = async () =>
    (await app.get('/api/diagnostics')).json().data as {
      checkedAt: string;
      checks: { battery: { status: string; value: { level: number | null; readAt: string | null } } };
    };
  for (const gap of [0, 2 * MINUTE, 10 * MINUTE, 4 * MINUTE, 59 * MINUTE, 30_000]) {
    await app.clock.tick(gap);
    phone.phone.level = 50 + (phone.phone.level % 40);
    const d = await battery();
    const { readAt, level } = d.checks.battery.value;
    t.type(readAt, 'string', `after ${gap / 1000} s: readAt given`);
    const age = Date.parse(d.checkedAt) - Date.parse(readAt!);
    t.ok(age >= 0 && age < 5 * MINUTE, `after ${gap / 1000} s: the reading shown is ${age / 1000} s old`);
    if (age === 0) t.equal(level, phone.phone.level, 'a new reading shows the phone as it is now');
  }

  await t.test(
    'a failed read keeps the last reading with its own readAt, then none once it is 5 minutes old',
    async (t) => {
      await app.clock.tick(5 * MINUTE);
      const good = await battery();
      phone.phone.batteryFails = true;
      await app.clock.tick(5 * MINUTE - 1000);
      const kept = await battery();
      t.same(
        kept.checks.battery.value.readAt,
        good.checks.battery.value.readAt,
        'still fresh: shown as read, readAt unchanged',
      );
      await app.clock.tick(1000);
      const reads = phone.count('termux-battery-status');
      const aged = await battery();
      t.equal(phone.count('termux-battery-status'), reads + 1, 'its reading aged: read again (and it failed)');
      t.equal(aged.checks.battery.status, 'unknown', 'the 5-minute-old reading is not shown');
      t.equal(aged.checks.battery.value.level, null);
      t.equal(aged.checks.battery.value.readAt, null);
      await battery();
      t.equal(
        phone.count('termux-battery-status'),
        reads + 1,
        'a failed read is tried again after a pause, not at every ask',
      );
      await app.clock.tick(MINUTE);
      phone.phone.batteryFails = false;
      const back = await battery();
      t.equal(phone.count('termux-battery-status'), reads + 2, 'a minute later an ask tries again');
      t.equal(back.checks.battery.value.readAt, back.checkedAt, 'and shows the new reading');
    },
  );
});
