// The "Done when", as a new user would try it, against the real gateway process: with
// SMS_GATEWAY_SMTP_PORT=2525, swaks puts one SMS "UPS on battery: Mains lost at 03:12" in the
// history; the same mail again (same Message-ID) adds nothing; a wrong password is 535; a
// recipient that is no number and no contact is refused at RCPT with the reason. Without the
// variable no socket listens on 2525; a 2525 already taken stops the start with one line.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { createServer, connect } from 'node:net';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { run } from '../smtp/smtp-app.js';

const noSwaks = spawnSync('swaks', ['--version']).error ? 'swaks is not installed (apt-get install swaks)' : false;
const SMTP_PORT = 2525;

const refusedConnection = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

t.test(
  'swaks to the real gateway: one SMS, a repeat adds nothing, 535, refused at RCPT',
  { skip: noSwaks },
  async (t) => {
    await holdPort8080(t);
    const home = tempDir(t);
    const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
    fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
    const env = { ...fake.env, SMS_GATEWAY_HOME: home, SMS_GATEWAY_SMTP_PORT: String(SMTP_PORT) };
    const gw = await startGateway(t, env);
    const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
    // As the issue types it; Debian 12's swaks reads a value starting with + as an option, so the number goes without it.
    const swaks = (to: string, password: string) =>
      run('swaks', [
        ...['--server', `127.0.0.1:${SMTP_PORT}`, '--auth-user', 'x', '--auth-password', password, '--to', to],
        ...['--header', 'Subject: UPS on battery', '--header', 'Message-Id: <ups-0312@nas.lan>'],
        ...['--body', 'Mains lost at 03:12'],
      ]);
    const first = await swaks('15551234567@sms', key);
    t.equal(first.code, 0, first.stdout);
    const texts = () => fake.calls('termux-sms-send').map((c) => c.stdin.toString());
    await waitFor('the SMS handed off', () => (texts().length === 1 ? true : undefined), 30_000, 100);
    t.same(texts(), ['UPS on battery: Mains lost at 03:12']);
    const again = await swaks('15551234567@sms', key);
    t.equal(again.code, 0, 'the repeat is answered 250');
    t.match(again.stdout, /250 Queued as SMS \S+ \(a repeat: queued before\)/);
    const wrong = await swaks('15551234567@sms', 'not-the-key');
    t.match(wrong.stdout, /<\*\* +535 /, 'a wrong password is 535');
    const nobody = await swaks('nobody@sms', key);
    t.match(nobody.stdout, /<\*\* +550 <nobody@sms> is neither a phone number/, 'refused at RCPT with the reason');
    const res = await httpGet('/api/messages?limit=100', { authorization: `Bearer ${key}` });
    const history = JSON.parse(res.body).data as { to: string; body: string; tags: Record<string, string> }[];
    t.same(
      history.map((m) => [m.to, m.body, m.tags]),
      [['15551234567', 'UPS on battery: Mains lost at 03:12', { email: '<ups-0312@nas.lan>' }]],
    );
    t.equal(texts().length, 1, 'nothing sent twice');
    t.match(gw.output(), /the e-mail intake is listening/);
  },
);

t.test('off by default: nothing listens on 2525; a taken 2525 stops the start with one line', async (t) => {
  await holdPort8080(t);
  const fake = fakeTermux(t, ['termux-sms-send']);
  const env = { ...fake.env, SMS_GATEWAY_HOME: tempDir(t) };
  await startGateway(t, env).then((gw) => {
    t.teardown(() => void gw.proc.kill('SIGKILL'));
  });
  t.equal(await refusedConnection(SMTP_PORT), true, 'no socket on 2525');

  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(SMTP_PORT, '0.0.0.0', resolve));
  t.teardown(() => holder.close());
  const other = { ...fake.env, SMS_GATEWAY_HOME: tempDir(t), SMS_GATEWAY_SMTP_PORT: String(SMTP_PORT) };
  const res = spawnSync(process.execPath, [CLI, 'start'], { env: other, encoding: 'utf8', timeout: 20_000 });
  t.equal(res.status, 1);
  t.match(res.stderr + res.stdout, /SMTP port 2525 \(SMS_GATEWAY_SMTP_PORT\) is already in use/);
});
