import t from 'tap';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_PATTERN } from '../../src/core/keys.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';

const run = runCli;

t.test('help and usage errors', async (t) => {
  const help = await run(['--help']);
  t.equal(help.code, 0);
  t.match(help.out, /Usage: sms-gateway <command>/);
  t.match(help.out, /start/);
  const none = await run([]);
  t.equal(none.code, 2);
  t.match(none.err, /Usage/);
  const unknown = await run(['launch']);
  t.equal(unknown.code, 2);
  t.match(unknown.err, /unknown command "launch"/);
  for (const cmd of [
    ['start', '--help'],
    ['key', '--help'],
    ['key', 'show', '-h'],
  ]) {
    const r = await run(cmd);
    t.equal(r.code, 0, cmd.join(' '));
    t.match(r.out, /^Usage: sms-gateway/, cmd.join(' '));
  }
  t.equal((await run(['key'])).code, 2);
  t.equal((await run(['key', 'delete'])).code, 2);
  t.equal((await run(['start', 'now'])).code, 2);
  const version = await run(['--version']);
  t.match(version.out, /^\d+\.\d+\.\d+\n$/);
});

t.test(
  'key rotate makes the key (and the home); key show prints it; a rotation replaces it; both print it alone',
  async (t) => {
    const home = join(tempDir(t), 'home');
    const env = { SMS_GATEWAY_HOME: home };
    const first = await run(['key', 'rotate'], env);
    t.equal(first.code, 0);
    t.match(first.out, /^sk_local_[A-Za-z0-9]{32}\n$/);
    t.equal(statSync(join(home, 'api-key')).mode & 0o777, 0o600);
    t.equal((await run(['key', 'show'], env)).out, first.out, 'stable');
    const rotated = await run(['key', 'rotate'], env);
    t.equal(rotated.code, 0);
    t.match(rotated.out.trim(), API_KEY_PATTERN);
    t.not(rotated.out, first.out);
    t.equal((await run(['key', 'show'], env)).out, rotated.out);
  },
);

t.test('a bad configuration value exits 2 naming the variable', async (t) => {
  const home = tempDir(t);
  const r = await run(['key', 'show'], { SMS_GATEWAY_HOME: home, SMS_GATEWAY_DEFAULT_SIM: 'two' });
  t.equal(r.code, 2);
  t.match(r.err, /^sms-gateway: invalid SMS_GATEWAY_DEFAULT_SIM="two"/);
  t.equal(r.out, '');
});

t.test('a forced real mode without termux-sms-send exits 1 with one line', async (t) => {
  const home = tempDir(t);
  const r = await run(['start'], { SMS_GATEWAY_HOME: home, SMS_GATEWAY_MODE: 'real', PATH: '/usr/bin:/bin' });
  t.equal(r.code, 1);
  t.match(r.err, /^sms-gateway: SMS_GATEWAY_MODE=real but termux-sms-send is not on PATH.*\n$/);
  t.equal(r.err.split('\n').length, 2, 'one line');
});
