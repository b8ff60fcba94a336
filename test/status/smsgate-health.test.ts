// SMSGate's health from the facts the gateway keeps (src/status/smsgate-health.ts): each check's
// status as SMSGate's app judges it (battery under 25 % warns, under 10 % fails; failed messages in
// the last hour warn, or fail when none was sent), the worst check decides, and a fact the phone has
// not told lately is not guessed (observedValue -1, the check passes and says so).
import t from 'tap';
import type { Snapshot } from '../../src/device/probes.js';
import type { Battery } from '../../src/device/probe-parsers.js';
import { releaseIdOf, smsgateHealthOf } from '../../src/status/smsgate-health.js';
import { testRuntime } from '../helpers/test-app.js';

const state = <T>(value: T | null) => ({ value, last: 'ok', detail: null, checkedAt: 1, readAt: 1, ms: 1 });
const snapshot = (battery: Partial<Battery> | null): Snapshot =>
  ({
    telephony: state(null),
    wifi: state(null),
    props: state(null),
    apiApp: state(null),
    battery: state(
      battery && {
        level: 80,
        charging: true,
        status: null,
        plugged: 'PLUGGED_AC',
        temperatureC: 25,
        health: null,
        ...battery,
      },
    ),
  }) as unknown as Snapshot;
const runtime = testRuntime({ version: '0.5.0' });
const health = (battery: Partial<Battery> | null = {}, outcomes = { sent: 3, failed: 0 }) =>
  smsgateHealthOf(runtime, snapshot(battery), outcomes);

t.test('all well: pass, with SMSGate check names and units', async (t) => {
  const h = health();
  t.equal(h.status, 'pass');
  t.equal(h.version, '0.5.0');
  t.equal(h.releaseId, 500);
  t.match(h.checks['battery:level'], { status: 'pass', observedValue: 80, observedUnit: 'percent' });
  t.match(h.checks['battery:charging'], { status: 'pass', observedValue: 3, observedUnit: 'flags' }, 'charging on AC');
  t.match(h.checks['messages:failed'], { status: 'pass', observedValue: 0, observedUnit: 'messages' });
});

t.test('the worst check decides', async (t) => {
  t.equal(health({ level: 20 }).status, 'warn');
  t.equal(health({ level: 9 }).status, 'fail');
  t.equal(health({}, { sent: 3, failed: 1 }).status, 'warn');
  t.equal(health({}, { sent: 0, failed: 2 }).status, 'fail', 'failed and none sent');
});

t.test('a battery the phone has not told lately: not guessed', async (t) => {
  const h = health(null);
  t.match(h.checks['battery:level'], { status: 'pass', observedValue: -1 });
  t.match(h.checks['battery:level']!.description, /not known/);
  t.equal(h.status, 'pass');
});

t.test('releaseId from the version', async (t) => {
  t.equal(releaseIdOf('1.2.3'), 10203);
  t.equal(releaseIdOf('0.5.0-rc.1'), 500);
  t.equal(releaseIdOf('garbage'), 0);
});
