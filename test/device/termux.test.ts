import t from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { findOnPath, runCommand } from '../../src/device/termux.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { isAlive } from '../../scripts/port-lock.js';
import { tempDir } from '../helpers/paths.js';

t.test('a JSON answer is parsed; argv and stdin arrive exactly', async (t) => {
  const fake = fakeTermux(t, ['termux-battery-status']);
  fake.output('termux-battery-status', '{"percentage": 80, "status": "CHARGING"}\n');
  const r = await runCommand('termux-battery-status', ['-a', 'b c'], {
    timeoutMs: 5000,
    expect: 'json',
    input: 'x\ny',
    env: fake.env,
  });
  t.equal(r.ok, true);
  t.same(r.ok && r.json, { percentage: 80, status: 'CHARGING' });
  const [call] = fake.calls('termux-battery-status');
  t.same(call!.argv, ['-a', 'b c']);
  t.equal(call!.stdin.toString(), 'x\ny');
});

t.test('Termux:API failures with exit 0 are recognized', async (t) => {
  const fake = fakeTermux(t, ['termux-battery-status']);
  const run = () => runCommand('termux-battery-status', [], { timeoutMs: 5000, expect: 'json', env: fake.env });
  fake.mode('termux-battery-status', 'permission');
  let r = await run();
  t.equal(!r.ok && r.failure, 'permission_denied');
  t.match(!r.ok && r.detail, /grant the following permissions/);
  fake.mode('termux-battery-status', 'error');
  r = await run();
  t.equal(!r.ok && r.failure, 'api_error');
  fake.mode('termux-battery-status', 'empty');
  r = await run();
  t.equal(!r.ok && r.failure, 'no_output');
  fake.mode('termux-battery-status', 'garbage');
  r = await run();
  t.equal(!r.ok && r.failure, 'api_error');
  t.match(!r.ok && r.detail, /not JSON/);
  fake.mode('termux-battery-status', 'fail');
  r = await run();
  t.equal(!r.ok && r.failure, 'api_error');
  t.match(!r.ok && r.detail, /exited with code 1: fake termux-battery-status failed/);
});

t.test('empty output is success when no answer is expected; text when text is', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send', 'getprop']);
  const r = await runCommand('termux-sms-send', ['-n', '123'], {
    timeoutMs: 5000,
    expect: 'none',
    input: 'hi',
    env: fake.env,
  });
  t.equal(r.ok, true);
  fake.output('getprop', 'Europe/Berlin\n');
  const p = await runCommand('getprop', ['persist.sys.timezone'], { timeoutMs: 5000, expect: 'text', env: fake.env });
  t.equal(p.ok && p.stdout.trim(), 'Europe/Berlin');
});

t.test('a hanging command is killed with its whole process group at the timeout', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  fake.mode('termux-sms-send', 'hang');
  const started = Date.now();
  const r = await runCommand('termux-sms-send', ['-n', '1'], {
    timeoutMs: 3000,
    expect: 'none',
    input: 'x',
    env: fake.env,
  });
  t.equal(!r.ok && r.failure, 'timeout');
  t.ok(Date.now() - started < 7000, 'returned soon after the timeout');
  const [call] = fake.calls('termux-sms-send');
  t.ok(call?.grandchild, 'the fake started a grandchild that holds stdout');
  for (let i = 0; i < 50 && isAlive(call!.grandchild!); i++) await sleep(20);
  t.equal(isAlive(call!.grandchild!), false, 'the grandchild was killed too');
});

t.test('a missing executable is not_found', async (t) => {
  const r = await runCommand('termux-definitely-missing', [], { timeoutMs: 1000, expect: 'json' });
  t.equal(!r.ok && r.failure, 'not_found');
  t.equal(findOnPath('termux-definitely-missing'), undefined);
  t.ok(findOnPath('sh'));
});

t.test('a command that is not an executable on PATH is never spawned; without input stdin is empty', async (t) => {
  // A file that is there but not executable: spawned, it would fail with EACCES (api_error).
  const dir = tempDir(t);
  writeFileSync(join(dir, 'termux-not-executable'), '#!/bin/sh\necho hi\n', { mode: 0o644 });
  const r = await runCommand('termux-not-executable', [], { timeoutMs: 1000, expect: 'text', env: { PATH: dir } });
  t.same(r, {
    ok: false,
    failure: 'not_found',
    detail: 'termux-not-executable is not installed (not found on PATH)',
    ms: 0,
  });
  const echo = await runCommand('cat', [], { timeoutMs: 5000, expect: 'none' });
  t.equal(echo.ok && echo.stdout, '', 'without input, stdin is empty (/dev/null)');
});

t.test('output beyond the cap is cut, not buffered without end', async (t) => {
  const fake = fakeTermux(t, ['getprop']);
  fake.output('getprop', 'x'.repeat(10_000));
  const r = await runCommand('getprop', [], { timeoutMs: 5000, expect: 'text', maxOutputBytes: 100, env: fake.env });
  t.equal(r.ok && r.stdout.length, 100);
});

t.test('stdin is handed over as a whole file before the spawn, and nothing stays on disk', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const text = '-n looks like an option\\n and ends with spaces  ';
  // A temp folder of its own: other test files' commands use the shared one meanwhile.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = tempDir(t);
  t.teardown(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });
  const before = readdirSync(tmpdir()).filter((f) => f.startsWith('smsgw-stdin-')).length;
  const r = await runCommand('termux-sms-send', ['-n', '1'], {
    timeoutMs: 5000,
    expect: 'none',
    input: text,
    env: fake.env,
  });
  t.equal(r.ok, true);
  t.equal(fake.calls('termux-sms-send')[0]!.stdin.toString(), text, 'byte for byte');
  t.equal(readdirSync(tmpdir()).filter((f) => f.startsWith('smsgw-stdin-')).length, before, 'no file left behind');
});

t.test('an input that cannot be prepared runs nothing and says why', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = '/nonexistent/dir';
  t.teardown(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  });
  const r = await runCommand('termux-sms-send', ['-n', '1'], {
    timeoutMs: 5000,
    expect: 'none',
    input: 'x',
    env: fake.env,
  });
  t.match(r, {
    ok: false,
    failure: 'api_error',
    detail: /could not prepare the input for termux-sms-send \(ENOENT\); nothing was run/,
  });
  t.equal(fake.calls('termux-sms-send').length, 0);
});

t.test('a process frozen past the timeout while the command finished: its exit counts, not the timer', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const running = runCommand('termux-sms-send', ['-n', '1'], {
    timeoutMs: 300,
    expect: 'none',
    input: 'x',
    env: fake.env,
  });
  // The event loop is blocked for 1.5 s (as when Android freezes the process): the fake
  // finishes meanwhile, and the 300 ms timer is overdue when the loop runs again.
  const until = Date.now() + 1500;
  while (Date.now() < until) {
    // frozen
  }
  const r = await running;
  t.equal(r.ok, true, `the command's own exit 0 decides (${JSON.stringify(r)})`);
  t.equal(fake.calls('termux-sms-send').length, 1);
});
