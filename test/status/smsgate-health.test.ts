// SMSGate's health object from the facts the gateway keeps: each check's status as SMSGate's app
// judges it (battery under 25 % warns, under 10 % fails; failed messages warn, or fail when none
// was sent), the worst check decides, and a battery not read lately is left out.
import t from 'tap';
import { releaseIdOf, smsgateHealth } from '../../src/status/smsgate-health.js';

const facts = (over: Partial<Parameters<typeof smsgateHealth>[0]> = {}) => ({
  version: '0.5.0',
  today: { sent: 3, failed: 0 },
  battery: { level: 80, charging: true },
  ...over,
});

t.test('all well: pass, with SMSGate check names and units', async (t) => {
  const h = smsgateHealth(facts());
  t.equal(h.status, 'pass');
  t.equal(h.version, '0.5.0');
  t.equal(h.releaseId, 500);
  t.same(Object.keys(h.checks).sort(), ['battery:charging', 'battery:level', 'messages:failed']);
  t.match(h.checks['battery:level'], { status: 'pass', observedValue: 80, observedUnit: 'percent' });
  t.match(h.checks['battery:charging'], { status: 'pass', observedValue: 1, observedUnit: 'flags' });
  t.match(h.checks['messages:failed'], { status: 'pass', observedValue: 0, observedUnit: 'messages' });
});

t.test('the worst check decides', async (t) => {
  t.equal(smsgateHealth(facts({ battery: { level: 20, charging: false } })).status, 'warn');
  t.equal(smsgateHealth(facts({ battery: { level: 9, charging: false } })).status, 'fail');
  t.equal(smsgateHealth(facts({ today: { sent: 3, failed: 1 } })).status, 'warn');
  t.equal(smsgateHealth(facts({ today: { sent: 0, failed: 2 } })).status, 'fail', 'failed and none sent');
});

t.test('no fresh battery reading: its checks are left out', async (t) => {
  const h = smsgateHealth(facts({ battery: null }));
  t.same(Object.keys(h.checks), ['messages:failed']);
  t.equal(h.status, 'pass');
});

t.test('releaseId from the version', async (t) => {
  t.equal(releaseIdOf('1.2.3'), 10203);
  t.equal(releaseIdOf('0.5.0-rc.1'), 500);
  t.equal(releaseIdOf('garbage'), 0);
});
