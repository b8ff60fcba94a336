// service install | uninstall and boot install into a temp $PREFIX / $HOME.
import t from 'tap';
import { chmodSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir, ROOT } from '../../helpers/paths.js';
import { servicePaths } from '../../../src/cli/commands/service.js';
import { bootScript } from '../../../src/cli/commands/boot.js';
import { findOnPath } from '../../../src/device/termux.js';

const PATH = '/usr/local/bin:/usr/bin:/bin';
const noSvlogd = findOnPath('svlogd', { PATH })
  ? false
  : "svlogd (runit) is not installed here: .ci/run installs Debian's runit";

t.test(
  'service install writes run and log/run, executable, idempotent; uninstall removes them',
  { skip: noSvlogd },
  async (t) => {
    const prefix = tempDir(t);
    const home = join(tempDir(t), 'gw home');
    const env = { PREFIX: prefix, SMS_GATEWAY_HOME: home, PATH: PATH };
    const first = await runCli(['service', 'install'], env);
    const p = servicePaths(prefix);
    t.equal(first.code, 0, first.err);
    t.match(first.out, /^Installed .*\/var\/service\/sms-gateway\.\nStart it now with: sv up sms-gateway/);
    for (const f of [p.run, p.logRun]) t.equal(statSync(f).mode & 0o777, 0o755, f);
    const run = readFileSync(p.run, 'utf8');
    t.match(run, /^#!\/\S*sh\n/);
    t.match(run, /\nexec 2>&1\n/);
    t.match(run, new RegExp(`\\nexport SMS_GATEWAY_HOME='${home.replace(/[/.]/g, '\\$&')}'\\n`), 'the home, quoted');
    t.match(
      run,
      new RegExp(`\\nexec '${process.execPath}' '${join(ROOT, 'bin/sms-gateway')}' start\\n$`),
      'the gateway in the foreground',
    );
    const logRun = readFileSync(p.logRun, 'utf8');
    t.match(logRun, new RegExp(`exec '[^']*svlogd' -tt '${p.logDir}'\\n$`));
    const again = await runCli(['service', 'install'], env);
    t.equal(again.code, 0);
    t.match(again.out, /^Already installed/);
    t.equal(readFileSync(p.run, 'utf8'), run, 'unchanged');
    const gone = await runCli(['service', 'uninstall'], env);
    t.equal(gone.code, 0);
    t.equal(existsSync(p.dir), false);
    t.match((await runCli(['service', 'uninstall'], env)).out, /^Not installed/);
  },
);

t.test('a quote in the home path cannot break out of the run script', { skip: noSvlogd }, async (t) => {
  const prefix = tempDir(t);
  const home = join(tempDir(t), "it's $(touch x)");
  const r = await runCli(['service', 'install'], { PREFIX: prefix, SMS_GATEWAY_HOME: home, PATH: PATH });
  t.equal(r.code, 0, r.err);
  t.match(readFileSync(servicePaths(prefix).run, 'utf8'), /export SMS_GATEWAY_HOME='[^\n]*it'\\''s \$\(touch x\)'\n/);
});

t.test('service without PREFIX or svlogd says what to do', async (t) => {
  const noPrefix = await runCli(['service', 'install'], { SMS_GATEWAY_HOME: tempDir(t) });
  t.equal(noPrefix.code, 1);
  t.match(noPrefix.err, /PREFIX is not set/);
  const noSvlogd = await runCli(['service', 'install'], {
    PREFIX: tempDir(t),
    SMS_GATEWAY_HOME: tempDir(t),
    PATH: '/nonexistent',
  });
  t.equal(noSvlogd.code, 1);
  t.match(noSvlogd.err, /pkg install termux-services/);
  t.equal((await runCli(['service'], {})).code, 2);
  t.equal((await runCli(['service', 'start'], {})).code, 2);
});

t.test('boot install copies the script into ~/.termux/boot/, executable, idempotent', async (t) => {
  const home = tempDir(t);
  const r = await runCli(['boot', 'install'], { HOME: home, SMS_GATEWAY_HOME: join(home, 'gw home') });
  t.equal(r.code, 0);
  const target = join(home, '.termux', 'boot', 'start-sms-gateway');
  t.match(r.out, new RegExp(`^Installed ${target}\\.`));
  t.equal(statSync(target).mode & 0o777, 0o755);
  const script = readFileSync(target, 'utf8');
  const template = readFileSync(join(ROOT, 'termux-boot/start-sms-gateway'), 'utf8');
  t.equal(script, bootScript(template, join(home, 'gw home')));
  t.match(script, `\nexport SMS_GATEWAY_HOME='${join(home, 'gw home')}'\n`, 'the home it was installed with');
  const lines = script.split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  t.equal(lines[0], 'termux-wake-lock', 'the wake lock comes first');
  t.match(script, /start-services\.sh/);
  t.match(script, /sms-gateway start/);
  const again = await runCli(['boot', 'install'], { HOME: home, SMS_GATEWAY_HOME: join(home, 'gw home') });
  t.match(again.out, /^Already installed/);
  const moved = await runCli(['boot', 'install'], { HOME: home, SMS_GATEWAY_HOME: join(home, 'elsewhere') });
  t.match(moved.out, /^Installed/, 'another home rewrites it');
  t.equal((await runCli(['boot'], { HOME: home })).code, 2);
});

t.test('at boot without termux-services the gateway starts with the home boot install was run with', async (t) => {
  const home = tempDir(t);
  const gwHome = join(home, "it's here");
  t.equal((await runCli(['boot', 'install'], { HOME: home, SMS_GATEWAY_HOME: gwHome })).code, 0);
  // Fake termux-wake-lock and sms-gateway: each records what it was started with.
  const bin = tempDir(t);
  const out = join(tempDir(t), 'started');
  writeFileSync(join(bin, 'termux-wake-lock'), '#!/bin/sh\n');
  writeFileSync(
    join(bin, 'sms-gateway'),
    `#!/bin/sh\nprintf '%s|%s' "$*" "$SMS_GATEWAY_HOME" > '${out}.tmp' && mv '${out}.tmp' '${out}'\n`,
  );
  for (const f of ['termux-wake-lock', 'sms-gateway']) chmodSync(join(bin, f), 0o755);
  // Termux:Boot's environment: HOME and PREFIX (no termux-services there), no SMS_GATEWAY_HOME.
  const r = spawnSync('sh', [join(home, '.termux', 'boot', 'start-sms-gateway')], {
    env: { HOME: home, PREFIX: tempDir(t), PATH: `${bin}:${PATH}` },
    encoding: 'utf8',
  });
  t.equal(r.status, 0, r.stderr);
  // The script starts the gateway in the background: wait for its record (a bounded poll, not a timing assertion).
  for (let i = 0; i < 200 && !existsSync(out); i++) await new Promise((res) => setTimeout(res, 25));
  t.equal(readFileSync(out, 'utf8'), `start|${gwHome}`);
});
