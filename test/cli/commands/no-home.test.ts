// The commands that read a gateway home never create one (issue 23): a mistyped
// SMS_GATEWAY_HOME is one line saying there is no home there and how to make one, exit 1,
// and nothing is written. key show and webhook secret on a home without its secret say
// so instead of making one that no running gateway knows.
import t from 'tap';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/paths.js';

const READERS = [
  ['status'],
  ['status', '--json'],
  ['key', 'show'],
  ['send', '+4915112345678', 'hello'],
  ['queue'],
  ['webhook', 'list'],
  ['webhook', 'test'],
  ['webhook', 'add', 'http://127.0.0.1:9/hook'],
  ['webhook', 'remove', 'wh_x'],
  ['webhook', 'secret'],
  ['webhook', 'rotate'],
  ['simulate', 'receive', '--from', '+4915100000001', 'hi'],
];

t.test('a home that does not exist: one line, exit 1, nothing created', async (t) => {
  const home = join(tempDir(t), 'x');
  for (const args of READERS) {
    const r = await runCli(args, { SMS_GATEWAY_HOME: home, PATH: '/usr/bin:/bin' });
    const name = args.join(' ');
    t.equal(r.code, 1, `${name}: exit 1`);
    t.equal(r.out, '', `${name}: nothing on stdout`);
    t.equal(
      r.err,
      `sms-gateway: no gateway home at ${home} (SMS_GATEWAY_HOME); start the gateway once with \`sms-gateway start\` to create it\n`,
      `${name}: the line`,
    );
    t.equal(existsSync(home), false, `${name}: no home created`);
  }
});

t.test('key show and webhook secret on a home without them: say so, create nothing', async (t) => {
  const home = tempDir(t);
  const env = { SMS_GATEWAY_HOME: home };
  const key = await runCli(['key', 'show'], env);
  t.equal(key.code, 1);
  t.equal(key.out, '');
  t.equal(
    key.err,
    `sms-gateway: no API key yet in ${home}: \`sms-gateway start\` creates one, or \`sms-gateway key rotate\` makes one now\n`,
  );
  const status = await runCli(['status'], env);
  t.equal(status.code, 1);
  t.equal(status.err, key.err, 'status needs the key too');
  const secret = await runCli(['webhook', 'secret'], env);
  t.equal(secret.code, 1);
  t.equal(
    secret.err,
    `sms-gateway: no webhook signing secret yet in ${home}: \`sms-gateway start\` creates one, or \`sms-gateway webhook rotate\` makes one now\n`,
  );
  t.same(readdirSync(home), [], 'nothing written');

  const rotated = await runCli(['key', 'rotate'], env);
  t.equal(rotated.code, 0, 'key rotate makes one');
  t.equal((await runCli(['key', 'show'], env)).out, rotated.out, 'then key show prints it');
});

t.test('key rotate creates a missing home (private)', async (t) => {
  const home = join(tempDir(t), 'new');
  const r = await runCli(['key', 'rotate'], { SMS_GATEWAY_HOME: home });
  t.equal(r.code, 0, r.err);
  t.match(r.out, /^sk_local_[A-Za-z0-9]{32}\n$/);
  t.ok(existsSync(join(home, 'api-key')));
});
