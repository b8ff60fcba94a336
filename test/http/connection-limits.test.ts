// The connection ceilings and their eviction (src/http/flood/connection-table.ts, with the
// ceilings of src/http/flood/limits.ts), with fake sockets and a fake clock: a newcomer past any
// ceiling is admitted by closing a connection of the caller holding the most (idle, then
// without complete headers, oldest first), never one with a request in flight; IPv6 counts
// per address and per /64; outside callers share one small ceiling; a connection without
// complete headers for 10 s is closed by a timer armed only while one exists.
import t from 'tap';
import {
  callerPlace,
  CONNECTION_LIMITS,
  CONNECTIONS_GRACE_MS,
  HEADERS_TIMEOUT_MS,
  MAX_CONNECTIONS,
  MAX_CONNECTIONS_GRACE,
  MAX_CONNECTIONS_PER_ADDRESS,
  MAX_CONNECTIONS_PER_PREFIX,
} from '../../src/http/flood/limits.js';
import { createConnectionTable, type Entry, type TableLimits } from '../../src/http/flood/connection-table.js';
import { fakeClock } from '../helpers/fake-clock.js';

class FakeSocket {
  destroyed = false;
  readonly name: string;
  constructor(name: string) {
    this.name = name;
  }
  destroy() {
    this.destroyed = true;
  }
}

/** The project's fake clock (test/helper.ts), as the table's timers are the gateway's clock. */
function fakeTimers() {
  const clock = fakeClock();
  return { clock, pending: () => clock.pendingTimers(), advance: (ms: number) => clock.advance(ms) };
}

/** No grace: the whole's ceiling is as strict as the others (the grace has tests of its own). */
const LIMITS: TableLimits = {
  total: 8,
  perAddress: 3,
  perPrefix: 5,
  outside: 2,
  headersMs: 10_000,
  grace: 0,
  graceMs: 0,
};

function setup(limits = LIMITS) {
  const timers = fakeTimers();
  const table = createConnectionTable(limits, timers.clock);
  const entries = new Map<FakeSocket, Entry>();
  const open = (address: string, name = address) => {
    const socket = new FakeSocket(name);
    const entry = table.admit(socket, callerPlace(address));
    if (entry) entries.set(socket, entry);
    return socket;
  };
  const entry = (s: FakeSocket) => entries.get(s)!;
  /** A request arrives and is answered: the connection is idle keep-alive afterwards. */
  const served = (s: FakeSocket) => {
    table.requestStarted(entry(s));
    table.requestEnded(entry(s));
  };
  const busy = (s: FakeSocket) => table.requestStarted(entry(s));
  return { table, timers, open, entry, served, busy };
}

const alive = (sockets: FakeSocket[]) => sockets.filter((s) => !s.destroyed).map((s) => s.name);

t.test('callerPlace', async (t) => {
  t.same(callerPlace('192.168.1.20'), { address: '192.168.1.20', outside: false });
  t.same(
    callerPlace('::ffff:192.168.1.20'),
    { address: '192.168.1.20', outside: false },
    'a mapped address is its IPv4 caller',
  );
  t.same(callerPlace('fd00:1:2:3:aaaa::1'), {
    address: 'fd00:1:2:3:aaaa::1',
    prefix: 'fd00:1:2:3::/64',
    outside: false,
  });
  t.equal(callerPlace('fd00:1:2:3:bbbb:cccc:dddd:eeee').prefix, 'fd00:1:2:3::/64', 'the same /64');
  t.not(callerPlace('fd00:1:2:4::1').prefix, callerPlace('fd00:1:2:3::1').prefix, 'another /64');
  t.same(callerPlace('fe80::1%eth0'), { address: 'fe80::1', prefix: 'fe80:0:0:0::/64', outside: false });
  t.same(callerPlace('203.0.113.1'), { address: '203.0.113.1', outside: true });
  t.same(
    callerPlace('2001:db8::1'),
    { address: '2001:db8::1', outside: true },
    'outside IPv6: per address, no /64 group',
  );
  t.same(callerPlace(undefined), { address: 'unknown', outside: true });
  t.same(callerPlace('not an address'), { address: 'unknown', outside: true });
});

t.test('an address at its ceiling makes room from its own connections, idle first', async (t) => {
  const { open, served, table } = setup();
  const a = [open('10.0.0.1', 'a1'), open('10.0.0.1', 'a2'), open('10.0.0.1', 'a3')];
  served(a[1]!); // a2 is idle keep-alive; a1 and a3 have not finished their headers
  const a4 = open('10.0.0.1', 'a4');
  t.same(alive([...a, a4]), ['a1', 'a3', 'a4'], 'the idle one went first');
  const a5 = open('10.0.0.1', 'a5');
  t.same(alive([...a, a4, a5]), ['a3', 'a4', 'a5'], 'then the oldest without complete headers');
  t.equal(table.size(), 3);
});

t.test('never a connection with a request in flight; refused only when nothing else is left', async (t) => {
  const { open, busy, table } = setup();
  const a = [open('10.0.0.1', 'a1'), open('10.0.0.1', 'a2'), open('10.0.0.1', 'a3')];
  busy(a[0]!);
  busy(a[2]!);
  const a4 = open('10.0.0.1', 'a4');
  t.same(alive([...a, a4]), ['a1', 'a3', 'a4'], 'a2, the only one without a request, made room');
  busy(a4);
  const a5 = open('10.0.0.1', 'a5');
  t.equal(a5.destroyed, true, 'three requests in flight: the newcomer is refused');
  t.same(alive([...a, a4]), ['a1', 'a3', 'a4']);
  t.equal(table.size(), 3);
  const other = open('10.0.0.2', 'b1');
  t.equal(other.destroyed, false, 'another address is unaffected');
});

t.test('at the total ceiling the caller holding the most gives up one', async (t) => {
  const { open, served, table } = setup();
  const big = [1, 2, 3].map((i) => open('10.0.0.1', `big${i}`));
  const mid = [1, 2].map((i) => open('10.0.0.2', `mid${i}`));
  const small = [open('10.0.0.3', 'small1'), open('10.0.0.4', 'small2'), open('10.0.0.5', 'small3')];
  t.equal(table.size(), 8);
  served(mid[1]!); // idle, but its holder is not the largest
  const w = open('10.0.0.9', 'witness');
  t.same(alive(big), ['big2', 'big3'], 'the largest holder lost its oldest connection');
  t.same(alive([...mid, ...small, w]), ['mid1', 'mid2', 'small1', 'small2', 'small3', 'witness']);
  const w2 = open('10.0.0.10', 'witness2');
  t.equal(alive([...big, ...mid]).length, 3, 'two holders of two: one of them gave one up');
  t.equal(alive([w, w2, ...small]).length, 5, 'the single connections are untouched');
  t.equal(table.size(), 8);
});

t.test('a flood of single connections from many addresses: the oldest make room', async (t) => {
  const { open, busy, table } = setup();
  const w = open('10.0.0.99', 'witness');
  busy(w);
  const flood = Array.from({ length: 100 }, (_, i) => open(`10.1.${i >> 8}.${i & 255}`, `f${i}`));
  t.equal(w.destroyed, false, 'the witness with its request in flight stays');
  t.equal(alive(flood).length, 7);
  t.same(alive(flood), ['f93', 'f94', 'f95', 'f96', 'f97', 'f98', 'f99'], 'the newest seven');
  t.equal(table.size(), 8);
  t.equal(table.callers(), 8, 'no group left behind by the closed ones');
});

t.test('IPv6: per address, and a /64 as a whole with eviction inside it', async (t) => {
  const { open, table } = setup();
  const host = [1, 2, 3, 4].map((i) => open('fd00::1', `h${i}`));
  t.same(alive(host), ['h2', 'h3', 'h4'], 'one address: the per-address ceiling');
  const neighbour = open('fd00::2', 'n1');
  t.equal(neighbour.destroyed, false, 'a neighbour in the same /64 is served');
  const second = [1, 2, 3].map((i) => open('fd00::1:1', `s${i}`));
  // The /64 holds 5: fd00::1 (3) and then fd00::1:1 (as it grew) gave up connections.
  t.equal(neighbour.destroyed, false, 'the neighbour with one connection is never the one closed');
  t.equal(alive([...host, ...second]).length, 4);
  t.equal(table.size(), 5);
  const other = open('fd00:0:0:1::1', 'other64');
  t.equal(other.destroyed, false, 'another /64 has its own ceiling');
  t.equal(table.size(), 6);
});

t.test('outside callers share a small ceiling, with eviction among them', async (t) => {
  const { open, table } = setup();
  const o = [open('203.0.113.1', 'o1'), open('203.0.113.1', 'o2'), open('198.51.100.7', 'p1')];
  t.same(alive(o), ['o2', 'p1'], 'two outside: the one holding more gave one up');
  const lan = [1, 2, 3].map((i) => open('10.0.0.5', `lan${i}`));
  t.equal(alive(lan).length, 3, 'the LAN is unaffected');
  t.equal(table.size(), 5);
  const q = open('2001:db8::1', 'q1');
  t.equal(q.destroyed, false);
  t.equal(alive([...o, q]).length, 2, 'still two outside in all');
});

t.test('headers not complete within 10 s: closed, by a timer armed only while needed', async (t) => {
  const { open, entry, busy, timers, table } = setup({ ...LIMITS, headersMs: HEADERS_TIMEOUT_MS });
  t.equal(timers.pending(), 0, 'no connection: no timer');
  const slow = open('10.0.0.1', 'slow');
  timers.advance(4_000);
  const later = open('10.0.0.2', 'later');
  const quick = open('10.0.0.3', 'quick');
  busy(quick);
  t.equal(timers.pending(), 1, 'one timer for all of them');
  timers.advance(HEADERS_TIMEOUT_MS - 4_000 - 1);
  t.equal(slow.destroyed, false, 'not before 10 s');
  timers.advance(1);
  t.equal(slow.destroyed, true, 'closed at 10 s');
  t.equal(later.destroyed, false);
  timers.advance(4_000);
  t.equal(later.destroyed, true, 'the next one at its own 10 s');
  t.equal(quick.destroyed, false, 'a request in flight is not timed here');
  t.equal(timers.pending(), 0, 'only busy connections left: no timer');
  table.requestEnded(entry(quick)); // answered, now idle keep-alive (Node closes it at 5 s; 10 s here at the latest)
  t.equal(timers.pending(), 1);
  timers.advance(HEADERS_TIMEOUT_MS);
  t.equal(quick.destroyed, true);
  t.equal(table.size(), 0);
  t.equal(timers.pending(), 0, 'idle: no timer, no wake-up');
});

t.test('pipelined requests: busy until the last answer', async (t) => {
  const { open, entry, table } = setup();
  const s = open('10.0.0.1', 's');
  table.requestStarted(entry(s));
  table.requestStarted(entry(s));
  table.requestEnded(entry(s));
  t.equal(entry(s).state, 'busy');
  table.requestEnded(entry(s));
  t.equal(entry(s).state, 'idle');
  table.closed(entry(s));
  table.closed(entry(s)); // a second close changes nothing
  t.equal(table.size(), 0);
  t.equal(table.callers(), 0);
});

t.test('the defaults: eight addresses at their ceiling do not keep a ninth out', async (t) => {
  const { open, table, timers } = setup(CONNECTION_LIMITS);
  for (let a = 0; a < 8; a++) for (let i = 0; i < MAX_CONNECTIONS_PER_ADDRESS + 5; i++) open(`192.168.1.${a + 1}`);
  t.equal(table.size(), MAX_CONNECTIONS, 'each address kept to its own ceiling');
  const w = open('192.168.1.100', 'witness');
  t.equal(w.destroyed, false);
  t.equal(table.size(), MAX_CONNECTIONS + 1, 'the whole within its grace');
  for (let i = 0; i < 300; i++) open(`fd00::${(i % 10) + 1}`);
  t.equal(
    table.size(),
    MAX_CONNECTIONS + 1 + MAX_CONNECTIONS_PER_PREFIX,
    'the /64 kept to its own ceiling, the whole within its grace',
  );
  for (let i = 0; i < 300; i++) open(`fd01::${(i % 10) + 1}`); // a second /64
  t.equal(table.size(), MAX_CONNECTIONS + MAX_CONNECTIONS_GRACE, 'never past the grace');
  t.equal(w.destroyed, false, 'a /64 flood closes its own connections first (it holds the most)');
  timers.advance(CONNECTIONS_GRACE_MS);
  t.equal(table.size(), MAX_CONNECTIONS, 'back to the ceiling once the grace is over');
  t.equal(w.destroyed, false, 'the largest holders made the room');
});

t.test('a batch larger than the whole: a newcomer whose request is read within the grace stays', async (t) => {
  const run = (grace: number) => {
    const { open, busy, table, timers } = setup({ ...LIMITS, grace, graceMs: 500 });
    const before = Array.from({ length: 8 }, (_, i) => open(`10.1.0.${i}`, `f${i}`));
    // One accept batch: the witness, then more flood than the whole's ceiling, all before
    // the event loop reads any of them.
    const w = open('10.0.0.99', 'witness');
    const after = Array.from({ length: 8 }, (_, i) => open(`10.2.0.${i}`, `g${i}`));
    const witnessSurvivedBatch = !w.destroyed;
    if (!w.destroyed) busy(w); // its request is read
    const armed = table.trimArmed();
    timers.advance(500);
    return { w, witnessSurvivedBatch, armed, table, alive: alive([...before, ...after]) };
  };
  const strict = run(0);
  t.equal(
    strict.witnessSurvivedBatch,
    false,
    'without the grace the 8th after it closed the witness unread (the old rule)',
  );
  const g = run(8);
  t.equal(g.witnessSurvivedBatch, true, 'with it the witness is still open when its request is read');
  t.equal(g.armed, true, 'room is made later, by one timer');
  t.equal(g.w.destroyed, false, 'and its request in flight keeps it');
  t.equal(g.table.size(), 8, 'the whole is back to its ceiling');
  t.same(g.alive, ['g1', 'g2', 'g3', 'g4', 'g5', 'g6', 'g7'], 'the oldest silent ones made the room');
  t.equal(g.table.trimArmed(), false, 'no timer left');
});

t.test('the grace never holds more than its size, and a whole of busy connections is looked at again', async (t) => {
  const { open, busy, entry, table, timers } = setup({ ...LIMITS, grace: 2, graceMs: 100 });
  const s = Array.from({ length: 10 }, (_, i) => open(`10.3.0.${i}`, `s${i}`));
  t.equal(table.size(), 10);
  for (const x of s) if (!x.destroyed) busy(x);
  const late = open('10.4.0.1', 'late');
  t.equal(late.destroyed, true, 'every connection under the full grace has a request in flight: refused');
  timers.advance(100);
  t.equal(table.size(), 10, 'nothing to close while all are busy');
  t.equal(table.trimArmed(), true, 'looked at again later');
  table.requestEnded(entry(s[0]!)); // answered: idle keep-alive
  table.requestEnded(entry(s[1]!));
  timers.advance(100);
  t.equal(table.size(), 8);
  t.same(alive(s.slice(0, 2)), [], 'the two that went idle made the room');
});

for (const limits of [LIMITS, { ...LIMITS, grace: 3, graceMs: 50 }])
  t.test(`random operations keep the counts true (against a plain model), grace ${limits.grace}`, async (t) => {
    const { open, entry, table, timers } = setup(limits);
    const sockets: FakeSocket[] = [];
    let seed = 7;
    const rnd = (n: number) => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n;
    const addrs = ['10.0.0.1', '10.0.0.2', '10.0.0.3', 'fd00::1', 'fd00::2', 'fd00::3', '203.0.113.1', '203.0.113.2'];
    for (let step = 0; step < 5000; step++) {
      const live = sockets.filter((s) => !s.destroyed);
      const op = rnd(4);
      if (op === 0 || live.length === 0) sockets.push(open(addrs[rnd(addrs.length)]!));
      else {
        const s = live[rnd(live.length)]!;
        const e = entry(s);
        if (op === 1) table.requestStarted(e);
        else if (op === 2) table.requestEnded(e);
        else {
          s.destroy();
          table.closed(e);
        }
      }
      const count = sockets.filter((s) => !s.destroyed).length;
      if (step % 7 === 0) timers.advance(10); // the grace's timer runs between events
      if (count !== table.size() || count > limits.total + limits.grace) {
        t.fail(`step ${step}: ${count} open, table says ${table.size()}`);
        return;
      }
    }
    t.pass('5000 steps, counts agree, never above the total and its grace');
  });
