// A fresh clone stays clean (issue 38): `git clone`, then `npm install` with the npm on PATH
// run by this test's Node, as a user does, then `git status --porcelain` must print nothing.
// The trap it holds: npm writes `"hasInstallScript": true` under better-sqlite3 whenever it
// installs from the lockfile (the lockfile keeps no `gypfile: false`, so npm sees the
// package's binding.gyp), but leaves it out when it resolves the package afresh (`npm
// install better-sqlite3@...`, from the registry's full manifest); a lockfile written the
// second way dirtied every fresh clone. The npm cache is reused (--prefer-offline): CI's own
// `npm ci` filled it. CI runs this on Node 24 (npm test) and Node 26 (the smoke line).
import t from 'tap';
import type { Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { findOnPath } from '../../src/device/termux.js';
import { ROOT, tempDir } from '../helpers/paths.js';

const npm = findOnPath('npm');

/** This process's environment without what npm and tap set for it (a child npm would take the parent project's prefix, and tap's coverage hooks). */
function userEnv(): NodeJS.ProcessEnv {
  const keep = new Set(['npm_config_nodedir', 'npm_config_cache']);
  const env = Object.entries(process.env).filter(
    ([k]) => keep.has(k) || !/^(npm_|TAP|_TAPJS_|NODE_OPTIONS$|NODE_V8_COVERAGE$)/.test(k),
  );
  return Object.fromEntries(env);
}

function run(t: Test, command: string, args: string[], cwd: string): string {
  const r = spawnSync(command, args, { cwd, env: userEnv(), encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  t.equal(r.status, 0, `${[command, ...args].join(' ')} exits 0${r.status === 0 ? '' : `: ${r.stderr.slice(-2000)}`}`);
  return r.stdout;
}

t.test('npm install in a fresh clone leaves git status clean', { skip: !npm && 'npm is not on PATH' }, async (t) => {
  const clone = join(tempDir(t, 'smsgw-clone-'), 'sms-gateway');
  run(t, 'git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], ROOT);
  t.equal(run(t, 'git', ['status', '--porcelain'], clone), '', 'the clone starts clean');
  // npm's own CLI under this test's Node: the Node CI is checking, whatever npm's shebang finds.
  const npmCli = realpathSync(npm!);
  const version = run(t, process.execPath, [npmCli, '--version'], clone).trim();
  run(
    t,
    process.execPath,
    [npmCli, 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'],
    clone,
  );
  const status = run(t, 'git', ['status', '--porcelain'], clone);
  const diff = status === '' ? '' : run(t, 'git', ['diff', '--stat', '--patch', '--unified=1'], clone).slice(0, 3000);
  t.equal(
    status,
    '',
    `Node ${process.version}, npm ${version}: npm install changed nothing tracked nor left anything untracked${diff ? `\n${diff}` : ''}`,
  );
});
