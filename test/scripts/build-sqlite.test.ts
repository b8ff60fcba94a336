// scripts/build-sqlite.mjs (npm postinstall): nothing to do where better-sqlite3 ships a
// prebuilt binary (this machine); where it must compile and npm's node-gyp is missing, it
// says how to fix it. The compile itself is tried by hand (CONTRIBUTING.md).
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

const SCRIPT = join(ROOT, 'scripts/build-sqlite.mjs');
const run = (env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [SCRIPT], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });

t.test('a prebuilt binary for this platform: nothing is compiled', async (t) => {
  const r = run({});
  t.equal(r.status, 0, r.stderr);
  t.equal(r.stderr, '');
});

t.test('a build is needed but node-gyp is not there: exit 1 with the fix', async (t) => {
  const r = run({ SMS_GATEWAY_BUILD_SQLITE: '1', npm_config_node_gyp: join(ROOT, 'no-such-node-gyp.js') });
  t.equal(r.status, 1);
  t.match(r.stderr, /node-gyp was not found; run `npm install`/);
});
