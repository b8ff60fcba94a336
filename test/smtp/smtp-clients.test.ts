// Real clients from Debian and Python against the intake: curl's SMTP, swaks, msmtp and
// smtplib each put their mail in the history as one SMS; a wrong password is refused by each.
import t from 'tap';
import { smtpApp, run } from './smtp-app.js';

const mail = (id: string) =>
  [
    'From: nas@lan',
    'To: +15551234567@sms',
    'Subject: Disk failing',
    `Message-ID: <${id}@nas.lan>`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Disk 3 reports SMART errors',
    '',
  ].join('\r\n');

t.test('curl smtp:// --mail-from --mail-rcpt --upload-file', async (t) => {
  const a = await smtpApp(t);
  const url = `smtp://127.0.0.1:${a.port}`;
  const args = ['-sS', url, '--mail-from', 'nas@lan', '--mail-rcpt', '+15551234567@sms', '--upload-file', '-'];
  const ok = await run('curl', [...args, '--user', `x:${a.key}`], mail('curl-1'));
  t.equal(ok.code, 0, ok.stderr);
  const bad = await run('curl', [...args, '--user', 'x:wrong'], mail('curl-2'));
  t.not(bad.code, 0);
  t.match(bad.stderr, /535|Login denied/);
  t.same(
    (await a.messages()).map((m) => m.body),
    ['Disk failing: Disk 3 reports SMART errors'],
  );
});

// swaks (Debian 12's 20201014) reads a value starting with + as an option: the number goes without it.
t.test('swaks, as the issue types it', async (t) => {
  const a = await smtpApp(t);
  const base = ['--server', `127.0.0.1:${a.port}`, '--to', '15551234567@sms', '--from', 'ups@lan'];
  const args = [...base, '--header', 'Subject: UPS on battery', '--body', 'Mains lost at 03:12'];
  const ok = await run('swaks', [...args, '--auth-user', 'x', '--auth-password', a.key]);
  t.equal(ok.code, 0, ok.stdout);
  const wrong = await run('swaks', [...args, '--auth-user', 'x', '--auth-password', 'nope']);
  t.match(wrong.stdout, /<\*\* +535 Authentication failed/, 'a wrong password is 535');
  const nobody = await run('swaks', [
    ...args.map((s) => (s === '15551234567@sms' ? 'nobody@sms' : s)),
    '--auth-user',
    'x',
    '--auth-password',
    a.key,
  ]);
  t.match(nobody.stdout, /<\*\* 550 <nobody@sms> is neither a phone number/, 'refused at RCPT with the reason');
  t.same(
    (await a.messages()).map((m) => m.body),
    ['UPS on battery: Mains lost at 03:12'],
  );
});

t.test('msmtp with AUTH PLAIN, from its command line', async (t) => {
  const a = await smtpApp(t);
  const args = [
    '--host=127.0.0.1',
    `--port=${a.port}`,
    '--auth=plain',
    '--user=x',
    '--passwordeval',
    `echo ${a.key}`,
    '--tls=off',
    '--from=nas@lan',
    '+15551234567@sms',
  ];
  const res = await run('msmtp', args, mail('msmtp-1'));
  t.equal(res.code, 0, res.stderr);
  t.same(
    (await a.messages()).map((m) => m.to),
    ['+15551234567'],
  );
});

t.test("Python's smtplib with LOGIN", async (t) => {
  const a = await smtpApp(t);
  const script = [
    'import smtplib, sys',
    's = smtplib.SMTP("127.0.0.1", int(sys.argv[1]))',
    's.ehlo()',
    's.login("printer", sys.argv[2])',
    's.sendmail("printer@lan", ["15551234567@printer.lan"], sys.stdin.read())',
    's.quit()',
  ].join('\n');
  const res = await run('python3', ['-c', script, String(a.port), a.key], mail('py-1'));
  t.equal(res.code, 0, res.stderr);
  const wrong = await run('python3', ['-c', script, String(a.port), 'wrong'], mail('py-2'));
  t.match(wrong.stderr, /SMTPAuthenticationError: \(535/);
  t.same(
    (await a.messages()).map((m) => [m.to, m.body]),
    [['15551234567', 'Disk failing: Disk 3 reports SMART errors']],
  );
});
