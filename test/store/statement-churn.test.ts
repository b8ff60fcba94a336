// better-sqlite3 survives statements dropped and collected by V8's own GC (the abort of
// better-sqlite3 12 on Node 24.19+), with timers and file I/O running: the churn runs in
// a child process with --expose-gc, since an abort would take the test runner with it.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

t.test('prepare and drop thousands of statements across collections: no abort', async (t) => {
  const r = spawnSync(process.execPath, ['--expose-gc', join(ROOT, 'test/fixtures/statement-churn.mjs')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 120_000,
  });
  t.equal(r.signal, null, `killed by ${r.signal}: ${r.stderr}`);
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^survived \d+ ticks\n$/);
});
