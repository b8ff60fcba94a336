// scripts/termux-setup.sh against a fake Termux: a fake `pkg` that "installs" packages into
// a temp $PREFIX/bin, fake `npm` and `node` that record their calls, and a temp $HOME.
// Only the script's own tools (bash and coreutils) come from the machine.
import t, { type Test } from 'tap';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers/paths.js';

const SCRIPT = join(ROOT, 'scripts/termux-setup.sh');
const TOOLS = ['bash', 'cat', 'chmod', 'dirname', 'grep', 'mkdir', 'readlink', 'ln', 'pwd', 'printf', 'true'];

function which(cmd: string): string | undefined {
  for (const dir of ['/usr/bin', '/bin', '/usr/local/bin']) if (existsSync(join(dir, cmd))) return join(dir, cmd);
  return undefined;
}

function script(path: string, body: string): void {
  writeFileSync(path, `#!/bin/bash\n${body}\n`);
  chmodSync(path, 0o755);
}

/** A fake phone: $PREFIX/bin gets what `pkg install` names; node and npm record their calls. */
function fakeTermux(t: Test, nodeVersion = 'v24.21.0') {
  const dir = tempDir(t);
  const prefix = join(dir, 'usr');
  const home = join(dir, 'home');
  const tools = join(dir, 'tools');
  const log = join(dir, 'calls.log');
  for (const d of [join(prefix, 'bin'), home, tools]) mkdirSync(d, { recursive: true });
  for (const tool of TOOLS) {
    const p = which(tool);
    if (p) symlinkSync(p, join(tools, tool));
  }
  // Each Termux package provides one command the script looks for.
  const provides: Record<string, string> = {
    'nodejs-lts': 'node',
    python: 'python3',
    make: 'make',
    clang: 'clang',
    binutils: 'ar',
    'termux-api': 'termux-sms-send',
    'termux-services': 'sv',
  };
  const cases = Object.entries(provides)
    .map(
      ([pkg, cmd]) =>
        `      ${pkg}) printf '#!/bin/bash\\nexec "${tools}/fake-${cmd === 'node' ? 'node' : 'cmd'}" "$@"\\n' > "$PREFIX/bin/${cmd}"; chmod 755 "$PREFIX/bin/${cmd}";;`,
    )
    .join('\n');
  script(
    join(tools, 'pkg'),
    `echo "pkg $*" >> '${log}'\n[ "$1" = install ] || exit 1\nshift\nfor p in "$@"; do\n  case "$p" in\n      -y) ;;\n${cases}\n      *) echo "unknown package $p" >&2; exit 1;;\n  esac\ndone`,
  );
  script(join(tools, 'fake-cmd'), 'exit 0');
  script(
    join(tools, 'fake-node'),
    `if [ "$1" = --version ]; then echo '${nodeVersion}'; exit 0; fi\necho "node $*" >> '${log}'`,
  );
  script(join(tools, 'npm'), `echo "npm $* (in $PWD)" >> '${log}'`);
  const env = { PATH: `${join(prefix, 'bin')}:${tools}`, PREFIX: prefix, HOME: home };
  const run = () => {
    const r = spawnSync(join(tools, 'bash'), [SCRIPT], { env, encoding: 'utf8', timeout: 30_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  const calls = () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []);
  return { prefix, home, run, calls };
}

t.test('first run installs the packages, writes the gyp workaround, npm installs, links and runs doctor', async (t) => {
  const phone = fakeTermux(t);
  const r = phone.run();
  t.equal(r.code, 0, r.err);
  t.same(phone.calls(), [
    'pkg install -y nodejs-lts python make clang binutils termux-api termux-services',
    `npm install --no-audit --no-fund (in ${ROOT})`,
    `node ${ROOT}/bin/sms-gateway doctor`,
  ]);
  const gypi = join(phone.home, '.gyp/include.gypi');
  t.equal(readFileSync(gypi, 'utf8'), "{'variables':{'android_ndk_path':''}}\n");
  t.equal(readlinkSync(join(phone.prefix, 'bin/sms-gateway')), join(ROOT, 'bin/sms-gateway'));
  t.match(r.out, /installing nodejs-lts python make clang binutils termux-api termux-services/);
  t.match(r.out, /wrote .*include\.gypi/);

  // A second run installs nothing and rewrites nothing.
  const before = statSync(gypi).mtimeMs;
  const again = phone.run();
  t.equal(again.code, 0, again.err);
  t.same(phone.calls().slice(3), [
    `npm install --no-audit --no-fund (in ${ROOT})`,
    `node ${ROOT}/bin/sms-gateway doctor`,
  ]);
  t.equal(statSync(gypi).mtimeMs, before, 'include.gypi untouched');
  t.match(again.out, /Termux packages: all present/);
  t.match(again.out, /already has android_ndk_path/);
  t.notMatch(again.out, /linked/);
});

t.test('a Node older than 22 stops the setup with the fix, before npm install', async (t) => {
  const phone = fakeTermux(t, 'v20.11.1');
  const r = phone.run();
  t.equal(r.code, 1);
  t.match(r.err, /Node v20\.11\.1 is too old: 22 or newer is needed\. Fix: pkg upgrade && pkg install nodejs-lts/);
  t.notOk(
    phone.calls().some((c) => c.startsWith('npm')),
    'npm never ran',
  );
});

t.test('an include.gypi without the variable is not overwritten; the fix is printed', async (t) => {
  const phone = fakeTermux(t);
  mkdirSync(join(phone.home, '.gyp'));
  writeFileSync(join(phone.home, '.gyp/include.gypi'), "{'variables':{'foo':'1'}}\n");
  const r = phone.run();
  t.equal(r.code, 1);
  t.match(r.err, /does not define android_ndk_path; add 'android_ndk_path': ''/);
  t.equal(readFileSync(join(phone.home, '.gyp/include.gypi'), 'utf8'), "{'variables':{'foo':'1'}}\n");
});

t.test('outside Termux it says what to do instead', async (t) => {
  const r = spawnSync('bash', [SCRIPT], { env: { PATH: '/usr/bin:/bin', HOME: tempDir(t) }, encoding: 'utf8' });
  t.equal(r.status, 1);
  t.match(r.stderr, /PREFIX is not set: this script is for Termux on the phone\. On a laptop run: npm install/);
});
