// bin/sms-gateway starts the CLI with and without --import hooks in NODE_OPTIONS (on the
// Node running the tests; .ci/run runs this file on Node 24 and on Node 26).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from './helper.js';

const HOOK = join(ROOT, 'test/fixtures/import-hook.mjs');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const run = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 20_000 });

t.test('without hooks', async (t) => {
  const r = run(['--version'], {});
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout, `${VERSION}\n`);
});

t.test('with an --import hook in NODE_OPTIONS (as tap, APM agents and loaders set)', async (t) => {
  const mark = join(tempDir(t), 'mark');
  const r = run(['--version'], { NODE_OPTIONS: `--import=${HOOK}`, SMS_GATEWAY_TEST_HOOK_MARK: mark });
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stdout, `${VERSION}\n`);
  t.notMatch(r.stderr, /ERR_REQUIRE_CYCLE_MODULE/);
  t.equal(readFileSync(mark, 'utf8'), 'ran\n', 'the hook was really loaded');
});

t.test('a command that loads the whole app (key show) works under the hook too', async (t) => {
  const home = tempDir(t);
  const r = run(['key', 'show'], { NODE_OPTIONS: `--import=${HOOK}`, SMS_GATEWAY_HOME: home });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^sk_local_[A-Za-z0-9]{32}\n$/);
});

t.test("Node's compile cache lives in the gateway's home, and never creates the home", async (t) => {
  const home = tempDir(t);
  t.equal(run(['key', 'show'], { SMS_GATEWAY_HOME: home }).status, 0);
  const cache = join(home, 'compile-cache');
  t.ok(existsSync(cache), 'the cache folder is in the home');
  t.ok(readdirSync(cache).some((d) => d.startsWith(`${process.version}-`)), 'an entry for this Node');
  const missing = join(tempDir(t), 'not-yet');
  t.equal(run(['--version'], { SMS_GATEWAY_HOME: missing }).status, 0);
  t.equal(existsSync(missing), false, 'a home that does not exist is left for the gateway to create (0700)');
});

t.test('`start` runs with the V8 flags for a phone, in the same process, hooks kept', async (t) => {
  const dir = tempDir(t);
  const hook = join(dir, 'hook.mjs');
  const mark = join(dir, 'mark');
  writeFileSync(hook, `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(mark)}, JSON.stringify([process.pid, process.execArgv]) + '\\n');\n`);
  const r = run(['start', '--help'], { NODE_OPTIONS: `--import=${hook}` });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^Usage: sms-gateway start/);
  const runs = readFileSync(mark, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as [number, string[]]);
  if (typeof (process as { execve?: unknown }).execve !== 'function') {
    t.equal(runs.length, 1, 'no process.execve on this Node: started once, without the flags');
    return;
  }
  t.equal(runs.length, 2, 'the hook ran in the launcher and again after it replaced itself');
  t.equal(runs[0]![0], runs[1]![0], 'the same pid: no second process');
  t.same(runs[1]![1], ['--max-semi-space-size=1', '--optimize-for-size'], 'the flags, once');
  const other = run(['--version'], { NODE_OPTIONS: `--import=${hook}` });
  t.equal(other.status, 0);
  t.equal(readFileSync(mark, 'utf8').trim().split('\n').length, 3, 'other commands start once, without re-exec');
});
