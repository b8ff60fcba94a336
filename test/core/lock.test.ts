// The lock the kernel releases: only a live gateway on the same home blocks a start. A
// 0.1 pid file naming any live process, a holder killed with -9, and a racing second
// starter (exactly one wins) are tried against real processes.
import t from 'tap';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { acquireLock, LockError, LOCK_FILE, PID_FILE } from '../../src/core/lock.js';
import { loadConfig } from '../../src/core/config.js';
import { createGateway } from '../../src/server/run-gateway.js';
import { ROOT, tempDir } from '../helpers/paths.js';

// The child runs the source through the test runner's own TypeScript loader (test/fixtures/ts-loader.mjs; dist/ is one bundle).
const LOADER = process.execArgv.filter((a) => a.includes('ts-loader'));

/** A child process that takes the lock on `home`, says so, and holds it. */
function holder(home: string) {
  const code = `import('${join(ROOT, 'src/core/lock.ts')}').then(({ acquireLock }) => {
    try { acquireLock(process.argv[1]); process.stdout.write('got\\n'); } catch (e) { process.stdout.write('busy ' + e.message + '\\n'); process.exit(3); }
    setInterval(() => {}, 1000);
  });`;
  const child = spawn(process.execPath, [...LOADER, '-e', code, home], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH },
  });
  const said = new Promise<string>((resolve) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', () => resolve(out.trim()));
  });
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  return { child, said, exited };
}

t.test('one holder at a time; released, it can be taken again', async (t) => {
  const home = tempDir(t);
  const release = acquireLock(home);
  t.equal(statSync(join(home, LOCK_FILE)).mode & 0o777, 0o600);
  t.equal(readFileSync(join(home, PID_FILE), 'utf8'), `${process.pid}\n`);
  t.throws(
    () => acquireLock(home),
    new LockError(
      `another gateway (pid ${process.pid}) is already running on ${home}; stop it first (or use another SMS_GATEWAY_HOME)`,
    ),
  );
  release();
  t.equal(existsSync(join(home, PID_FILE)), false);
  acquireLock(home)();
});

t.test('a 0.1 lock file naming a live process that is no gateway never blocks a start', async (t) => {
  const home = tempDir(t);
  writeFileSync(join(home, 'gateway.lock'), '1\n'); // pid 1 is alive, and is no gateway
  const release = acquireLock(home);
  t.equal(existsSync(join(home, 'gateway.lock')), false, 'the old file is gone');
  release();
  writeFileSync(join(home, PID_FILE), '1\n'); // a stale pid file of ours, likewise
  acquireLock(home)();
});

t.test('a holder killed with -9 leaves nothing that blocks the next start', async (t) => {
  const home = tempDir(t);
  const h = holder(home);
  t.equal(await h.said, 'got');
  t.throws(() => acquireLock(home), LockError, 'held while it lives');
  h.child.kill('SIGKILL');
  await h.exited;
  const release = acquireLock(home);
  t.equal(readFileSync(join(home, PID_FILE), 'utf8'), `${process.pid}\n`, 'the pid file names the new holder');
  release();
});

t.test('two starters racing for a stale lock: exactly one wins', async (t) => {
  for (let round = 0; round < 5; round++) {
    const home = tempDir(t);
    writeFileSync(join(home, 'gateway.lock'), '1\n');
    const a = holder(home);
    const b = holder(home);
    const answers = await Promise.all([a.said, b.said]);
    t.equal(answers.filter((x) => x === 'got').length, 1, `round ${round}: one got it (${answers.join(' / ')})`);
    t.equal(
      answers.filter((x) => x.startsWith('busy another gateway')).length,
      1,
      `round ${round}: the other was refused`,
    );
    a.child.kill('SIGKILL');
    b.child.kill('SIGKILL');
    await Promise.all([a.exited, b.exited]);
  }
});

t.test('the loser touches nothing of the database', async (t) => {
  const home = tempDir(t);
  const release = acquireLock(home);
  t.teardown(release);
  const config = loadConfig({ SMS_GATEWAY_HOME: home, SMS_GATEWAY_MODE: 'simulated' });
  await t.rejects(createGateway({ config, env: { PATH: '/nonexistent' } }), LockError);
  t.equal(existsSync(join(home, 'gateway.db')), false, 'no database was opened');
});
