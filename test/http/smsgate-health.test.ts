// GET / and GET /health in SMSGate's form for a request with a Basic credential (SMSGate's
// clients), from the facts the gateway keeps: no Termux:API call of their own. Without a
// credential (or with Bearer) both answer exactly as before; a wrong Basic key is SMSGate's 401.
import t from 'tap';
import type { RunResult } from '../../src/device/termux.js';
import { VERSION } from '../../src/core/package-root.js';
import { GETPROP, TELEPHONY, WIFI } from '../fixtures/phone.js';
import { releaseIdOf } from '../../src/status/smsgate-health.js';
import { recordingSender, testApp } from '../helpers/test-app.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const real = { mode: 'real' as const, simulation: 'none' as const };
const CHECKS = [
  'messages:failed',
  'battery:level',
  'battery:charging',
  'connection:status',
  'connection:transport',
  'connection:cellular',
];

/** A phone answering every probe, its battery as the test sets it, each command counted. */
function phone(battery: { percentage: number; plugged: string; status: string }) {
  const calls: string[] = [];
  const ok = (stdout: string, json?: unknown): RunResult => ({ ok: true, stdout, json, ms: 1 });
  const run = async (command: string): Promise<RunResult> => {
    calls.push(command);
    if (command === 'termux-battery-status') return ok('{}', battery);
    if (command === 'termux-telephony-deviceinfo') return ok(TELEPHONY, JSON.parse(TELEPHONY));
    if (command === 'termux-wifi-connectioninfo') return ok(WIFI, JSON.parse(WIFI));
    if (command === 'getprop') return ok(GETPROP);
    return { ok: false, failure: 'not_found', detail: `${command}: not found`, ms: 1 };
  };
  return { run, calls, battery };
}

type App = Awaited<ReturnType<typeof testApp>>;
const ask = (app: App, url: string, authorization?: string) =>
  app.app.inject({ url, remoteAddress: '192.168.1.60', headers: authorization ? { authorization } : {} });

t.test('without a credential or with Bearer: the seed health and the console, unchanged', async (t) => {
  const app = await testApp(t);
  for (const authorization of [undefined, `Bearer ${app.key}`, 'Bearer wrong']) {
    const health = await ask(app, '/health', authorization);
    t.equal(health.statusCode, 200, String(authorization));
    t.same(health.json(), {
      status: 'ok',
      version: VERSION,
      smsEnabled: true,
      mode: 'simulated',
      simulation: 'success',
      testMode: true,
    });
    const root = await ask(app, '/', authorization);
    t.equal(root.statusCode, 200);
    t.match(root.headers['content-type'], /^text\/html/);
  }
});

t.test('Basic with the key: SMSGate health, its checks, facts not read yet said so; no Termux:API call', async (t) => {
  const p = phone({ percentage: 80, plugged: 'PLUGGED_AC', status: 'CHARGING' });
  const app = await testApp(t, { runtime: real, probeRun: p.run });
  const res = await ask(app, '/health', basic('sms', app.key));
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.match(body, { status: 'pass', version: VERSION, releaseId: releaseIdOf(VERSION) });
  t.equal(releaseIdOf('0.5.2'), 502);
  t.same(Object.keys(body.checks).sort(), [...CHECKS].sort());
  t.same(body.checks['messages:failed'], {
    status: 'pass',
    observedValue: 0,
    observedUnit: 'messages',
    description: 'Failed messages for last hour',
  });
  t.match(body.checks['battery:level'], { status: 'pass', observedValue: -1, description: /not known/ });
  t.same(p.calls, [], 'the Basic health asked the phone nothing');
  const root = await ask(app, '/', basic('anyone', app.key));
  t.equal(root.statusCode, 200);
  t.same(root.json(), { status: 'ok', model: null }, 'the model before getprop was read: null');
  t.same(p.calls, []);
});

t.test("the phone's facts once read: battery and connection as SMSGate rates them", async (t) => {
  const p = phone({ percentage: 20, plugged: 'PLUGGED_USB', status: 'CHARGING' });
  const app = await testApp(t, { runtime: real, probeRun: p.run });
  await app.get('/api/diagnostics'); // reads the facts, as any asker does
  const read = p.calls.length;
  const res = await ask(app, '/health', basic('sms', app.key));
  t.equal(res.statusCode, 200, 'warn is still 200');
  const body = res.json();
  t.equal(body.status, 'warn');
  t.match(body.checks['battery:level'], { status: 'warn', observedValue: 20, observedUnit: 'percent' });
  t.match(body.checks['battery:charging'], { status: 'pass', observedValue: 5, observedUnit: 'flags' });
  t.match(body.checks['connection:status'], { status: 'pass', observedValue: 1, observedUnit: 'boolean' });
  t.match(body.checks['connection:transport'], { status: 'pass', observedValue: 6 });
  t.match(body.checks['connection:cellular'], { status: 'pass', observedValue: 4, observedUnit: 'index' });
  t.equal(p.calls.length, read, 'no read of its own');
  t.same((await ask(app, '/', basic('sms', app.key))).json(), { status: 'ok', model: 'Pixel 6a' });

  p.battery.percentage = 9;
  app.clock.advance(6 * 60_000);
  await app.get('/api/diagnostics');
  const low = await ask(app, '/health', basic('sms', app.key));
  t.equal(low.statusCode, 500, 'fail answers 500, as SMSGate does');
  t.match(low.json(), { status: 'fail', checks: { 'battery:level': { status: 'fail', observedValue: 9 } } });
});

t.test('messages:failed: a failure of the last hour warns, and fails while nothing was sent', async (t) => {
  let fail = true;
  const { sender } = recordingSender(() =>
    fail ? { ok: false, reason: 'permission_denied', detail: 'x' } : { ok: true },
  );
  const app = await testApp(t, { sender });
  await app.send({ to: '+15551234567', message: 'hello' });
  const failing = await ask(app, '/health', basic('sms', app.key));
  t.equal(failing.statusCode, 500);
  t.match(failing.json().checks['messages:failed'], { status: 'fail', observedValue: 1 });
  fail = false;
  await app.send({ to: '+15551234567', message: 'again' });
  const warning = await ask(app, '/health', basic('sms', app.key));
  t.equal(warning.statusCode, 200);
  t.match(warning.json().checks['messages:failed'], { status: 'warn', observedValue: 1 });
  app.clock.advance(3600_000);
  t.match((await ask(app, '/health', basic('sms', app.key))).json().checks['messages:failed'], {
    status: 'pass',
    observedValue: 0,
  });
});

t.test("Basic with a wrong key: SMSGate's 401 with the Basic challenge, on / and /health", async (t) => {
  const app = await testApp(t);
  for (const url of ['/', '/health']) {
    for (const authorization of [basic('sms', 'wrong'), basic('sms', ''), 'Basic !!!', 'basic']) {
      const res = await ask(app, url, authorization);
      t.equal(res.statusCode, 401, `${url} ${authorization}`);
      t.equal(res.headers['www-authenticate'], 'Basic realm="sms-gateway"');
      t.match(res.json(), { message: /Basic/ });
    }
  }
});
