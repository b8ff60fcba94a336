// GET /metrics through the real hooks: the counters move by exactly what the test sends and
// fails, with their labels; the guards come first (403, 429, then 401 without the key);
// `promtool check metrics` (Debian's prometheus package, installed by .ci/run) finds nothing
// in a real scrape; and the metrics schedule nothing: no timer, fake or real.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { fakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { recordingSender, testApp, testRuntime } from '../helpers/test-app.js';
import type { HandoffResult } from '../../src/sms/handoff.js';
import { BUCKET_CAPACITY } from '../../src/http/rate-limit.js';
import { createMetrics } from '../../src/status/metrics.js';
import { VERSION } from '../../src/core/package-root.js';

const to = '+1 555 123 4567';

/** `name{labels}` -> value for every sample of an exposition (labels as printed). */
export function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/** A gateway whose sender answers from a script, taking `ms` of fake time per hand-off. */
async function scripted(t: Parameters<typeof testApp>[0], answers: HandoffResult[], ms = 1500) {
  const clock = fakeClock();
  const { sender } = recordingSender(() => {
    clock.advance(ms);
    return answers.shift() ?? { ok: true };
  });
  return testApp(t, { clock, sender });
}

const scrape = (app: Awaited<ReturnType<typeof testApp>>) =>
  app.app.inject({ url: '/metrics', remoteAddress: '192.168.1.30', headers: app.auth });

t.test('3 sent and 2 failed: every counter moves by exactly that, with its labels', async (t) => {
  const gw = await scripted(t, [
    { ok: true },
    { ok: false, reason: 'simulated_failure', detail: 'simulated failure' },
    { ok: true },
    { ok: false, reason: 'permission_denied', detail: 'no SEND_SMS' },
    { ok: true },
  ]);
  const before = samples((await scrape(gw)).body);
  t.equal(before.get('sms_gateway_messages_sent_total'), 0);
  t.equal(
    before.get('sms_gateway_message_failures_total{reason="simulated_failure"}'),
    0,
    'every reason is there from the start',
  );
  t.equal(before.get('sms_gateway_handoff_duration_seconds_count{result="ok"}'), 0);

  const statuses = [];
  for (let i = 0; i < 5; i++)
    statuses.push((await gw.send({ to, message: i === 0 ? 'x'.repeat(161) : 'Hello' })).statusCode);
  t.same(statuses, [200, 502, 200, 502, 200]);

  const res = await scrape(gw);
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  const m = samples(res.body);
  const expected: Record<string, number> = {
    sms_gateway_messages_accepted_total: 5,
    sms_gateway_messages_sent_total: 3,
    sms_gateway_messages_failed_total: 2,
    sms_gateway_messages_cancelled_total: 0,
    'sms_gateway_message_failures_total{reason="simulated_failure"}': 1,
    'sms_gateway_message_failures_total{reason="permission_denied"}': 1,
    'sms_gateway_message_failures_total{reason="timeout"}': 0,
    // The first message has 161 characters: two segments.
    sms_gateway_segments_accepted_total: 6,
    sms_gateway_segments_handed_off_total: 6,
    // Billed only when a real phone sent them (sms/settle.ts): none in simulated mode.
    sms_gateway_segments_billed_total: 0,
    sms_gateway_received_messages_total: 0,
    sms_gateway_queue_waiting_messages: 0,
    sms_gateway_queue_paused: 0,
    sms_gateway_queue_next_attempt_seconds: 0,
    'sms_gateway_handoff_duration_seconds_count{result="ok"}': 3,
    'sms_gateway_handoff_duration_seconds_sum{result="ok"}': 4.5,
    'sms_gateway_handoff_duration_seconds_bucket{le="1",result="ok"}': 0,
    'sms_gateway_handoff_duration_seconds_bucket{le="2",result="ok"}': 3,
    'sms_gateway_handoff_duration_seconds_count{result="failed"}': 2,
    [`sms_gateway_info{version="${VERSION}",mode="simulated"}`]: 1,
  };
  for (const [name, value] of Object.entries(expected)) t.equal(m.get(name), value, name);
  t.notOk(
    [...m.keys()].some((k) => k.startsWith('sms_gateway_battery_level_percent')),
    'a battery the phone did not report has no sample',
  );
});

t.test('a queued message waits; webhook deliveries per target id, never the URL', async (t) => {
  const gw = await testApp(t, { webhookUrls: ['http://192.168.1.9:9000/hook/s3cret-path'] });
  const res = await gw.queue({ to, message: 'later', sendAt: new Date(gw.clock.now() + 3600_000).toISOString() });
  t.equal(res.statusCode, 202);
  gw.clock.advance(60_000);
  const body = (await scrape(gw)).body;
  const m = samples(body);
  t.equal(m.get('sms_gateway_queue_waiting_messages'), 1);
  t.equal(m.get('sms_gateway_queue_oldest_waiting_seconds'), 60);
  t.notMatch(body, /s3cret|192\.168\.1\.9/, 'no webhook URL in the scrape');
  const [target] = gw.gateway.webhooks.outbox.status();
  t.equal(m.get(`sms_gateway_webhook_deliveries_total{target="${target!.id}",result="delivered"}`), 0);
  t.equal(m.get(`sms_gateway_webhook_pending_deliveries{target="${target!.id}"}`), 0);
  t.equal(m.get(`sms_gateway_webhook_target_disabled{target="${target!.id}"}`), 0);
});

t.test('the guards: 403 off the LAN, then 429, then 401 without the key', async (t) => {
  const { app, auth } = await testApp(t);
  const off = await app.inject({ url: '/metrics', remoteAddress: '8.8.8.8', headers: auth });
  t.equal(off.statusCode, 403, 'off the LAN, even with the key');
  const none = await app.inject({ url: '/metrics', remoteAddress: '10.0.0.5' });
  t.equal(none.statusCode, 401);
  t.same(none.json(), { error: 'Unauthorized' });
  t.notMatch(none.body, /sms_gateway/, 'no series without the key');
  const wrong = await app.inject({
    url: '/metrics',
    remoteAddress: '10.0.0.5',
    headers: { authorization: 'Bearer sk_local_wrong' },
  });
  t.equal(wrong.statusCode, 401);
  let limited;
  for (let i = 0; i < BUCKET_CAPACITY + 5 && limited?.statusCode !== 429; i++)
    limited = await app.inject({ url: '/metrics', remoteAddress: '10.0.0.6' });
  t.equal(limited?.statusCode, 429, 'the rate limit before the key: a keyless caller is limited, not told 401 forever');
});

const noPromtool = spawnSync('promtool', ['--version']).error
  ? 'promtool is not installed here (Debian package prometheus: apt-get install prometheus; .ci/run installs it)'
  : false;

t.test('promtool check metrics reports nothing on a real scrape', { skip: noPromtool }, async (t) => {
  const fake = fakeTermux(t, ['termux-battery-status', 'termux-wifi-connectioninfo']);
  fake.output(
    'termux-battery-status',
    JSON.stringify({ percentage: 87, status: 'CHARGING', plugged: 'PLUGGED_AC', temperature: 30.5, health: 'GOOD' }),
  );
  fake.output('termux-wifi-connectioninfo', JSON.stringify({ ip: '192.168.1.50', ssid: 'home', rssi: -58 }));
  const gw = await testApp(t, { probeEnv: fake.env, webhookUrls: ['http://192.168.1.9:9000/hook'] });
  await gw.probes.refresh();
  await gw.send({ to, message: 'Hello' });
  const res = await scrape(gw);
  const m = samples(res.body);
  t.equal(m.get('sms_gateway_battery_level_percent'), 87);
  t.equal(m.get('sms_gateway_battery_charging'), 1);
  t.equal(m.get('sms_gateway_wifi_signal_dbm'), -58);
  const check = spawnSync('promtool', ['check', 'metrics'], { input: res.body, encoding: 'utf8' });
  t.equal(check.status, 0, `promtool exit status (stderr: ${check.stderr})`);
  t.equal(check.stdout + check.stderr, '', 'promtool says nothing');
});

t.test('the metrics schedule nothing: no fake timer, no real one', async (t) => {
  // Every way to schedule, counted while the metrics are built and scraped.
  const calls: string[] = [];
  const g = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['setTimeout', 'setInterval', 'setImmediate']) {
    const real = g[name]!;
    g[name] = (...args: unknown[]) => {
      calls.push(name);
      return real(...args);
    };
    t.teardown(() => {
      g[name] = real;
    });
  }
  const clock = fakeClock();
  const metrics = createMetrics({
    clock,
    runtime: testRuntime(),
    totals: () => ({ accepted: 0, sent: 0, failed: 0, cancelled: 0, queued: 0, segments: 0, billedSegments: 0 }),
    queueState: () => ({
      waiting: 0,
      paused: false,
      nextAttemptAt: null,
      oldestWaitingSince: null,
      consecutiveTimeouts: 0,
    }),
    webhookTargets: () => [],
    device: () => ({ battery: { value: null }, wifi: { value: null } }) as never,
  });
  await metrics.scrape();
  await metrics.scrape();
  t.same(calls, [], 'no real timer, interval or immediate');
  t.equal(clock.pendingTimers(), 0, 'no fake timer');

  const gw = await testApp(t);
  // Fresh device facts: a scrape reads them as they are (a stale cache, older than the
  // probes' 30 s, starts a probe round, as GET /api/device does: the scraper asked).
  await gw.probes.refresh();
  await gw.app.ready(); // Fastify's plugin loading has timeouts of its own
  const pending = gw.clock.pendingTimers();
  calls.length = 0;
  await scrape(gw);
  await scrape(gw);
  t.equal(gw.clock.pendingTimers(), pending, 'scraping a gateway sets no fake timer');
  t.same(
    calls.filter((c) => c !== 'setImmediate'),
    [],
    'nor a real one (inject() itself answers on immediates)',
  );
});

t.test(
  'what happened before the first scrape (prom-client not loaded yet) is counted exactly, and what follows too',
  async (t) => {
    const metrics = createMetrics({
      clock: fakeClock(),
      runtime: testRuntime(),
      totals: () => ({ accepted: 0, sent: 0, failed: 0, cancelled: 0, queued: 0, segments: 0, billedSegments: 0 }),
      queueState: () => ({
        waiting: 0,
        paused: false,
        nextAttemptAt: null,
        oldestWaitingSince: null,
        consecutiveTimeouts: 0,
      }),
      webhookTargets: () => [],
      device: () => ({ battery: { value: null }, wifi: { value: null } }) as never,
    });
    const handoff = (ms: number, ok: boolean, segments = 1) =>
      metrics.onHandoff({ row: { segments, handoffStartedAt: 1000 }, result: { ok }, at: 1000 + ms });
    handoff(300, true); // bucket 0.5
    handoff(450, true, 2); // bucket 0.5
    handoff(1000, true); // bucket 1 (le is inclusive)
    handoff(30_000, false, 3); // bucket 30
    handoff(75_000, false); // above the last bucket
    metrics.onEvent({ type: 'sms.failed', data: { reason: 'timeout' } } as never);
    metrics.onEvent({ type: 'sms.received', data: {} } as never);
    const first = samples(await metrics.scrape());
    const ok = (le: string) => first.get(`sms_gateway_handoff_duration_seconds_bucket{le="${le}",result="ok"}`);
    const failed = (le: string) => first.get(`sms_gateway_handoff_duration_seconds_bucket{le="${le}",result="failed"}`);
    t.same([ok('0.25'), ok('0.5'), ok('1'), ok('+Inf')], [0, 2, 3, 3], 'ok: the buckets (cumulative)');
    t.same(
      [failed('20'), failed('30'), failed('60'), failed('+Inf')],
      [0, 1, 1, 2],
      'failed: the buckets (cumulative)',
    );
    t.equal(first.get('sms_gateway_handoff_duration_seconds_count{result="ok"}'), 3);
    t.equal(first.get('sms_gateway_handoff_duration_seconds_sum{result="ok"}'), 1.75, 'the sum: 0.3 + 0.45 + 1');
    t.equal(first.get('sms_gateway_handoff_duration_seconds_sum{result="failed"}'), 105);
    t.equal(first.get('sms_gateway_segments_handed_off_total'), 8, '1 + 2 + 1 + 3 + 1');
    t.equal(first.get('sms_gateway_message_failures_total{reason="timeout"}'), 1);
    t.equal(first.get('sms_gateway_message_failures_total{reason="expired"}'), 0, 'every reason is there');
    t.equal(first.get('sms_gateway_received_messages_total'), 1);

    handoff(200, true);
    metrics.onEvent({ type: 'sms.received', data: {} } as never);
    const second = samples(await metrics.scrape());
    t.equal(
      second.get('sms_gateway_handoff_duration_seconds_bucket{le="0.25",result="ok"}'),
      1,
      'after it, straight into the histogram',
    );
    t.equal(second.get('sms_gateway_handoff_duration_seconds_count{result="ok"}'), 4);
    t.equal(second.get('sms_gateway_segments_handed_off_total'), 9);
    t.equal(second.get('sms_gateway_received_messages_total'), 2);
  },
);
