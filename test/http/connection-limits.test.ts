// The connection budget (src/http/connection-limits.ts): per caller (an IPv4 address or an
// IPv6 /64, so a host cannot multiply itself with addresses of its prefix) and for all
// callers outside the local network together, released exactly once per connection.
import t from 'tap';
import { callerKey, createConnectionBudget, MAX_CONNECTIONS_PER_CALLER, MAX_OUTSIDE_CONNECTIONS } from '../../src/http/connection-limits.js';

t.test('callerKey', async (t) => {
  t.equal(callerKey('192.168.1.20'), '192.168.1.20');
  t.equal(callerKey('::ffff:192.168.1.20'), '192.168.1.20', 'a mapped address is its IPv4 caller');
  t.equal(callerKey('fd00:1:2:3:aaaa::1'), 'fd00:1:2:3::/64');
  t.equal(callerKey('fd00:1:2:3:bbbb:cccc:dddd:eeee'), 'fd00:1:2:3::/64', 'the same /64');
  t.not(callerKey('fd00:1:2:4::1'), callerKey('fd00:1:2:3::1'), 'another /64 is another caller');
  t.equal(callerKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  t.equal(callerKey(undefined), 'unknown');
  t.equal(callerKey('not an address'), 'unknown');
});

t.test('per caller', async (t) => {
  const budget = createConnectionBudget({ perCaller: 3, outside: 2 });
  const held = [1, 2, 3].map((i) => budget.admit(`fd00::${i}`));
  t.ok(held.every(Boolean), 'three addresses of one /64 are admitted');
  t.equal(budget.admit('fd00::99'), undefined, 'a fourth address of the same /64 is refused');
  t.ok(budget.admit('192.168.1.20'), 'another caller is still served');
  held[0]!();
  held[0]!(); // a second release changes nothing
  const again = budget.admit('fd00::4');
  t.ok(again, 'one closed: one more admitted');
  t.equal(budget.admit('fd00::5'), undefined, 'and only one');
});

t.test('outside the local network, all together', async (t) => {
  const budget = createConnectionBudget({ perCaller: 100, outside: 2 });
  const a = budget.admit('203.0.113.1');
  const b = budget.admit('198.51.100.7');
  t.ok(a && b);
  t.equal(budget.admit('192.0.2.9'), undefined, 'a third outside caller is refused before any parsing');
  t.equal(budget.admit('2001:db8::1'), undefined, 'IPv6 from outside too');
  t.ok(budget.admit('10.0.0.5'), 'the LAN is unaffected');
  t.equal(budget.outside(), 2);
  a!();
  t.ok(budget.admit('192.0.2.9'), 'room again after one closed');
});

t.test('the defaults', async (t) => {
  const budget = createConnectionBudget();
  for (let i = 0; i < MAX_CONNECTIONS_PER_CALLER; i++) t.ok(budget.admit('192.168.1.30'), `local ${i}`);
  t.equal(budget.admit('192.168.1.30'), undefined);
  for (let i = 0; i < MAX_OUTSIDE_CONNECTIONS; i++) t.ok(budget.admit(`203.0.113.${i + 1}`), `outside ${i}`);
  t.equal(budget.admit('203.0.113.200'), undefined);
  t.equal(budget.callers(), 1 + MAX_OUTSIDE_CONNECTIONS);
});
