// A partial run (`npx tap <some tests>`) exits 0 when its tests pass, while `npm test` (the
// full run, what CI runs) still fails below the coverage thresholds. A partial run covers only
// part of the code (or none of it: a docs test loads no source file), so package.json's tap
// section allows incomplete and empty coverage, and the `test` script takes that back. Each
// case runs tap in a small project of its own in a temp folder, with package.json's own tap
// section and `test` script, so this run's coverage files in .tap/ are never touched.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/paths.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { tap: object; scripts: { test: string } };
const tapBin = realpathSync(join(ROOT, 'node_modules', '.bin', 'tap'));

/** A project with package.json's tap section, a module with a function no test calls, and one passing test. */
function project(t: Test): string {
  const dir = tempDir(t, 'smsgw-partial-');
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'partial', type: 'module', tap: pkg.tap }));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  mkdirSync(join(dir, 'test', 'fixtures'), { recursive: true });
  copyFileSync(join(ROOT, 'test', 'fixtures', 'ts-loader.mjs'), join(dir, 'test', 'fixtures', 'ts-loader.mjs'));
  const write = (file: string, lines: string[]) => writeFileSync(join(dir, file), `${lines.join('\n')}\n`);
  write('half.ts', ['export const used = (n: number) => n + 1;', 'export const unused = (n: number) => n - 1;']);
  write('test/half.test.ts', ["import t from 'tap';", "import { used } from '../half.js';", 't.equal(used(1), 2);']);
  write('test/docs.test.ts', ["import t from 'tap';", "t.equal(1 + 1, 2, 'loads no source file');"]);
  return dir;
}

/** Runs tap in `dir` with `args`, under this Node, without what tap set for this process. */
function tap(dir: string, args: string[]) {
  const own = /^(npm_|TAP|_TAPJS_|NODE_OPTIONS$|NODE_V8_COVERAGE$)/;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !own.test(k)));
  const r = spawnSync(process.execPath, [tapBin, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

const testScriptArgs = pkg.scripts.test.split(' ').slice(1);

t.test('the test script is tap with the thresholds enforced', async (t) => {
  t.equal(pkg.scripts.test.split(' ')[0], 'tap');
  t.same(testScriptArgs, ['--no-allow-incomplete-coverage', '--no-allow-empty-coverage']);
});

t.test('a partial run whose tests pass exits 0, below the thresholds or with no coverage', async (t) => {
  const dir = project(t);
  const half = tap(dir, ['test/half.test.ts']);
  t.match(half.out, /# \{ total: 1, pass: 1 \}/, 'its test passes');
  t.match(half.out, /half\.ts\s*\|\s*100\s*\|\s*100\s*\|\s*50\s*\|/, 'one of its two functions covered');
  t.equal(half.code, 0, `exit 0${half.code === 0 ? '' : `: ${half.out.slice(-600)}`}`);
  const docs = tap(dir, ['test/docs.test.ts']);
  t.match(docs.out, /No coverage generated/);
  t.equal(docs.code, 0, `no coverage at all: exit 0 too${docs.code === 0 ? '' : `: ${docs.out.slice(-600)}`}`);
});

t.test("the test script's run still fails below the thresholds", async (t) => {
  const dir = project(t);
  const half = tap(dir, [...testScriptArgs, 'test/half.test.ts']);
  t.match(half.out, /# \{ total: 1, pass: 1 \}/, 'its test passes');
  t.equal(half.code, 1, 'exit 1: functions 50% < 90%');
});

t.test('a partial run with a failing test still exits 1', async (t) => {
  const dir = project(t);
  writeFileSync(join(dir, 'test', 'fails.test.ts'), "import t from 'tap';\nt.equal(1 + 1, 3);\n");
  const r = tap(dir, ['test/fails.test.ts']);
  t.match(r.out, /# \{ total: 1, pass: 0, fail: 1 \}/);
  t.equal(r.code, 1);
});
