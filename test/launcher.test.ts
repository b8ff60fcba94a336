// bin/sms-gateway starts the CLI with and without --import hooks in NODE_OPTIONS (on the
// Node running the tests; .ci/run runs this file on Node 24 and on Node 26).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { CLI, ROOT, tempDir } from './helpers/paths.js';
import { plainCodeCache } from './helpers/code-cache.js';

const HOOK = join(ROOT, 'test/fixtures/import-hook.mjs');
/** bin/sms-gateway's V8 flags for `start` (its first line): young generation, no background tasks (the heap's mode is set later, src/core/memory-mode.ts). */
const PHONE_FLAGS = [
  '--max-semi-space-size=1',
  '--no-concurrent-recompilation',
  '--no-concurrent-sparkplug',
  '--single-threaded-gc',
];
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const run = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [CLI, ...args], {
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });

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

t.test('a command that loads the whole app (key rotate) works under the hook too', async (t) => {
  const home = tempDir(t);
  const r = run(['key', 'rotate'], { NODE_OPTIONS: `--import=${HOOK}`, SMS_GATEWAY_HOME: home });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^sk_local_[A-Za-z0-9]{32}\n$/);
});

t.test("Node's compile cache lives in the gateway's home, and never creates the home", async (t) => {
  const home = tempDir(t);
  t.equal(run(['key', 'rotate'], { SMS_GATEWAY_HOME: home }).status, 0);
  const cache = join(home, 'compile-cache');
  t.ok(existsSync(cache), 'the cache folder is in the home');
  t.ok(
    readdirSync(cache).some((d) => d.startsWith(`${process.version}-`)),
    'an entry for this Node',
  );
  const missing = join(tempDir(t), 'not-yet');
  t.equal(run(['--version'], { SMS_GATEWAY_HOME: missing }).status, 0);
  t.equal(existsSync(missing), false, 'a home that does not exist is left for the gateway to create (0700)');
});

t.test('`start` runs with the V8 flags for a phone, in the same process, hooks kept', async (t) => {
  const dir = tempDir(t);
  const hook = join(dir, 'hook.mjs');
  const mark = join(dir, 'mark');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(mark)}, JSON.stringify([process.pid, process.execArgv]) + '\\n');\n`,
  );
  const r = run(['start', '--help'], { NODE_OPTIONS: `--import=${hook}` });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^Usage: sms-gateway start/);
  const runs = readFileSync(mark, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as [number, string[]]);
  if (typeof (process as { execve?: unknown }).execve !== 'function') {
    t.equal(runs.length, 1, 'no process.execve on this Node: started once, without the flags');
    return;
  }
  t.equal(runs.length, 2, 'the hook ran in the launcher and again after it replaced itself');
  t.equal(runs[0]![0], runs[1]![0], 'the same pid: no second process');
  t.same(runs[1]![1], PHONE_FLAGS, 'the flags, once');
  const other = run(['--version'], { NODE_OPTIONS: `--import=${hook}` });
  t.equal(other.status, 0);
  t.equal(readFileSync(mark, 'utf8').trim().split('\n').length, 3, 'other commands start once, without re-exec');
});

t.test('`sms-gateway start` run from PATH takes the flags from the first line: Node starts once', async (t) => {
  const dir = tempDir(t);
  const hook = join(dir, 'hook.mjs');
  const mark = join(dir, 'mark');
  writeFileSync(
    hook,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(mark)}, JSON.stringify(process.execArgv) + '\\n');\n`,
  );
  // As a shell runs it: the file itself, its first line's `env -S` finding this Node on PATH.
  const r = spawnSync(CLI, ['start', '--help'], {
    env: { PATH: `${dirname(process.execPath)}:${process.env.PATH}`, NODE_OPTIONS: `--import=${hook}` },
    encoding: 'utf8',
    timeout: 20_000,
  });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^Usage: sms-gateway start/);
  const runs = readFileSync(mark, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string[]);
  t.same(runs, [PHONE_FLAGS], 'one start of Node, with the flags of the first line');
});

// The oldest Node on the machine (/usr/bin/node, v20 on the CI box), or SMS_GATEWAY_OLD_NODE.
const OLD_NODE = process.env.SMS_GATEWAY_OLD_NODE ?? '/usr/bin/node';
const oldVersion = existsSync(OLD_NODE) ? spawnSync(OLD_NODE, ['--version'], { encoding: 'utf8' }).stdout.trim() : '';
const oldMajor = Number(/^v(\d+)\./.exec(oldVersion)?.[1] ?? NaN);

t.test(
  'on a Node older than 22 every command prints one line and exits 1',
  { skip: oldMajor < 22 ? false : `no Node older than 22 at ${OLD_NODE}` },
  async (t) => {
    const home = join(tempDir(t), 'not-yet');
    for (const args of [['--version'], ['start'], ['status'], ['doctor'], ['key', 'show']]) {
      const r = spawnSync(OLD_NODE, [CLI, ...args], {
        env: { PATH: process.env.PATH, SMS_GATEWAY_HOME: home },
        encoding: 'utf8',
        timeout: 20_000,
      });
      t.equal(r.status, 1, `${args.join(' ')}: exit 1`);
      t.equal(r.stdout, '', `${args.join(' ')}: nothing on stdout`);
      t.equal(
        r.stderr,
        `sms-gateway: Node.js ${oldVersion} is too old: 22 or newer is needed. ` +
          'On Termux: pkg install nodejs-lts; elsewhere: nodejs.org or a version manager (nvm, fnm), then npm install again.\n',
        `${args.join(' ')}: the one line`,
      );
    }
    t.equal(existsSync(home), false, 'nothing was created');
  },
);

const NODE_MAJOR = Number(process.versions.node.split('.')[0]);

t.test(
  "start's flags keep V8's code caches valid (Node's own modules are built with one)",
  {
    // Node 22's V8 counts --max-semi-space-size in a cache's flags: there a start compiles Node's
    // own modules again (slower, nothing else). The phone's Nodes (24, 26) keep the caches.
    skip: NODE_MAJOR < 24 ? "Node 22's V8 rejects caches under --max-semi-space-size (the phone runs 24 or 26)" : false,
  },
  async (t) => {
    // V8 rejects code cached under other flags that change how code is compiled (--single-threaded
    // and --optimize-for-size among them): Node then compiles each of its own modules again.
    const source = 'function f(a) { return a + 1 }';
    const script = `process.stdout.write(String(new (require('node:vm').Script)(${JSON.stringify(source)}, { cachedData: Buffer.from(process.env.CACHE, 'base64') }).cachedDataRejected));`;
    const cache = plainCodeCache(source);
    t.ok(cache.length > 0, 'a Node without flags made the cache');
    const used = spawnSync(process.execPath, [...PHONE_FLAGS, '-e', script], {
      encoding: 'utf8',
      env: { ...process.env, CACHE: cache.toString('base64') },
    });
    t.equal(used.status, 0, used.stderr);
    t.equal(used.stdout, 'false', `a cache made without flags is accepted under ${PHONE_FLAGS.join(' ')}`);
  },
);

t.test('the first line fits the 128 bytes older Android kernels read of it', async (t) => {
  const first = readFileSync(CLI, 'utf8').split('\n', 1)[0]!;
  t.ok(Buffer.byteLength(`${first}\n`) <= 128, `${Buffer.byteLength(first)} bytes: ${first}`);
  t.same(
    first.split(' ').filter((w) => w.startsWith('--')),
    PHONE_FLAGS,
    'and holds the flags whole',
  );
});
