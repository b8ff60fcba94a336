// `sms-gateway start` through its own entry (src/cli/start-entry.ts, what the built CLI loads for
// start): the same help, usage error and exit codes as through the router.
import t from 'tap';
import { main as startEntry } from '../../src/cli/start-entry.js';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/cli.js';

const run = (argv: string[], env: NodeJS.ProcessEnv = {}) => runCli(argv, env, startEntry);

t.test('start --help prints its usage; an extra argument is a usage error', async (t) => {
  for (const argv of [
    ['start', '--help'],
    ['start', '-h'],
  ]) {
    const r = await run(argv);
    t.equal(r.code, 0, argv.join(' '));
    t.match(r.out, /^Usage: sms-gateway start/, argv.join(' '));
  }
  const extra = await run(['start', 'now']);
  t.equal(extra.code, 2);
  t.match(extra.err, /^Usage: sms-gateway start/);
});

t.test('a bad configuration value exits 2 naming the variable', async (t) => {
  const r = await run(['start'], { SMS_GATEWAY_HOME: tempDir(t), SMS_GATEWAY_DEFAULT_SIM: 'two' });
  t.equal(r.code, 2);
  t.match(r.err, /^sms-gateway: invalid SMS_GATEWAY_DEFAULT_SIM="two"/);
  t.equal(r.out, '');
});

t.test('a forced real mode without termux-sms-send exits 1 with one line', async (t) => {
  const r = await run(['start'], { SMS_GATEWAY_HOME: tempDir(t), SMS_GATEWAY_MODE: 'real', PATH: '/usr/bin:/bin' });
  t.equal(r.code, 1);
  t.match(r.err, /^sms-gateway: SMS_GATEWAY_MODE=real but termux-sms-send is not on PATH.*\n$/);
  t.equal(r.err.split('\n').length, 2, 'one line');
});
