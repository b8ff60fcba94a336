// Ending what is left of an interrupted hand-off (src/device/kill-leftover.ts): the group a
// command runs in is described as it starts; killLeftover signals it only in the same boot
// and only while its id is provably the same group. The real case: a hanging fake
// termux-sms-send whose grandchild holds on, ended from its recorded description.
import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from '../../src/device/termux.js';
import {
  currentBootId,
  describeGroup,
  killLeftover,
  startTicksOf,
  type ProcessGroup,
} from '../../src/device/kill-leftover.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { isAlive } from '../../scripts/port-lock.js';

const boot = currentBootId();
t.test(
  'a real hanging hand-off: described at spawn, ended with its grandchild',
  { skip: boot === null ? 'no /proc/sys/kernel/random/boot_id here' : false },
  async (t) => {
    const fake = fakeTermux(t, ['termux-sms-send']);
    fake.mode('termux-sms-send', 'hang');
    let group: ProcessGroup | undefined;
    const run = runCommand('termux-sms-send', ['-n', '1'], {
      timeoutMs: 60_000,
      expect: 'none',
      input: 'x',
      env: fake.env,
      onSpawn: (pid) => (group = describeGroup(pid, boot)),
    });
    t.ok(group, 'onSpawn gave the pid as the spawn returned');
    t.equal(group!.boot, boot);
    t.type(group!.startTicks, 'number', "the leader's start time is read");
    let grandchild: number | undefined;
    for (let i = 0; i < 200 && grandchild === undefined; i++) {
      grandchild = fake.calls('termux-sms-send')[0]?.grandchild;
      if (grandchild === undefined) await sleep(10);
    }
    t.ok(grandchild && isAlive(grandchild), 'the grandchild runs');
    t.equal(killLeftover(group!, { bootId: boot }), 'killed');
    const r = await run;
    t.equal(r.ok, false, 'the command ended (killed)');
    for (let i = 0; i < 200 && isAlive(grandchild!); i++) await sleep(10);
    t.notOk(isAlive(grandchild!), 'the grandchild is gone too');
  },
);

t.test('what is never signalled', async (t) => {
  const group: ProcessGroup = { pgid: 4321, boot: 'boot-a', startTicks: 100 };
  const kills: number[] = [];
  const kill = (pid: number) => void kills.push(pid);
  t.equal(
    killLeftover(group, { bootId: 'boot-b', kill, startTicksOf: () => 100 }),
    'other_boot',
    'another boot: its pid means nothing now',
  );
  t.equal(killLeftover(group, { bootId: null, kill, startTicksOf: () => 100 }), 'unknown', 'this boot cannot be told');
  t.equal(
    killLeftover({ ...group, boot: null }, { bootId: 'boot-a', kill }),
    'unknown',
    'the recorded boot is unknown',
  );
  t.equal(
    killLeftover(group, { bootId: 'boot-a', kill, startTicksOf: () => 555 }),
    'reused',
    'the pid leads another process',
  );
  t.equal(
    killLeftover({ ...group, startTicks: null }, { bootId: 'boot-a', kill, startTicksOf: () => 100 }),
    'unknown',
    'a live leader with an unknown start time',
  );
  t.equal(
    killLeftover({ ...group, pgid: 1 }, { bootId: 'boot-a', kill, startTicksOf: () => null }),
    'unknown',
    'never init or a whole-system kill',
  );
  t.same(kills, [], 'nothing was signalled');
  t.equal(killLeftover(group, { bootId: 'boot-a', kill, startTicksOf: () => 100 }), 'killed', 'the same leader');
  t.equal(
    killLeftover(group, { bootId: 'boot-a', kill, startTicksOf: () => null }),
    'killed',
    'the leader gone, members may remain',
  );
  t.same(kills, [-4321, -4321], 'the whole group, by its negative id');
  const esrch = () => {
    throw Object.assign(new Error('kill ESRCH'), { code: 'ESRCH' });
  };
  t.equal(killLeftover(group, { bootId: 'boot-a', kill: esrch, startTicksOf: () => null }), 'gone');
});

t.test('reading /proc', async (t) => {
  t.equal(
    currentBootId(() => 'b1c2\n'),
    'b1c2',
  );
  t.equal(
    currentBootId(() => ''),
    null,
  );
  t.equal(
    currentBootId(() => {
      throw new Error('EACCES');
    }),
    null,
    'unreadable (some Android versions): null',
  );
  // A command name with spaces and parentheses does not shift the fields.
  const stat = '1234 (sh (x) y) S 1 1234 1234 0 -1 4194560 100 0 0 0 0 0 0 0 20 0 1 0 98765 1000 10';
  t.equal(
    startTicksOf(1234, () => stat),
    98765,
  );
  t.equal(
    startTicksOf(1234, () => {
      throw new Error('ENOENT');
    }),
    null,
  );
  t.type(startTicksOf(process.pid), 'number', "this process's own start time");
});
