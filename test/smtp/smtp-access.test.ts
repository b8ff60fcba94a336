// Who may mail and how the intake shows: STARTTLS only with a certificate and key, trusted
// senders without AUTH, a peer outside the local network refused at connect, a port already in
// use as one clear line at start, the start screen's line, `sms-gateway status`'s line and the
// /metrics series (promtool checks them in test/http/metrics.test.ts's way when it is there).
import { createServer } from 'node:net';
import { join } from 'node:path';
import t from 'tap';
import { renderStartScreen } from '../../src/cli/start-screen.js';
import { formatStatus } from '../../src/cli/commands/status.js';
import { smtpHandlers } from '../../src/smtp/smtp-handlers.js';
import { testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';
import { smtpApp, rawClient, replyCode, run } from './smtp-app.js';

const mail = { from: 'nvr@lan', to: '+15551234567@sms', subject: 'Motion', text: 'Garden camera' };

t.test('STARTTLS is offered only with a certificate and key, and works', async (t) => {
  const plain = await smtpApp(t);
  const c = rawClient(plain.port);
  await c.reply();
  t.notMatch(await c.ask('EHLO test'), /STARTTLS/, 'not offered without a certificate');
  c.socket.destroy();

  const dir = tempDir(t);
  const [certPath, keyPath] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  const subject = ['-subj', '/CN=phone.lan', '-days', '2', '-nodes'];
  const made = await run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-keyout',
    keyPath,
    '-out',
    certPath,
    ...subject,
  ]);
  t.equal(made.code, 0, made.stderr);
  const a = await smtpApp(t, { tls: { certPath, keyPath } });
  const tls = rawClient(a.port);
  await tls.reply();
  t.match(await tls.ask('EHLO test'), /STARTTLS/, 'offered');
  tls.socket.destroy();
  const nodemailer = (await import('nodemailer')).default;
  const secure = nodemailer.createTransport({
    host: '127.0.0.1',
    port: a.port,
    requireTLS: true,
    tls: { rejectUnauthorized: false },
    auth: { user: 'x', pass: a.key },
  });
  t.equal(await replyCode(secure.sendMail(mail)), 250, 'a mail over STARTTLS');
  t.equal((await a.messages()).length, 1);
  t.equal((await a.diagnostics()).value.starttls, true);
});

t.test('a trusted sender mails without AUTH; an untrusted one gets 530', async (t) => {
  const a = await smtpApp(t, { trusted: ['127.0.0.0/8'] });
  t.equal(await replyCode(a.transport(null).sendMail(mail)), 250);
  const b = await smtpApp(t, { trusted: ['192.168.1.7', 'fd00::/8'] });
  t.equal(await replyCode(b.transport(null).sendMail(mail)), 530);
});

t.test('a peer outside the local network is refused at connect', async (t) => {
  const handlers = smtpHandlers({
    segments: 2,
    apiKey: () => 'k',
    contacts: () => [],
    optOuts: { isListed: () => false },
    intake: { receive: () => ({ ids: [], repeated: false }) },
    trusted: () => false,
    refused: () => {},
    accepted: () => {},
  });
  const answer = (remoteAddress: string) =>
    new Promise<Error | null | undefined>((resolve) =>
      handlers.onConnect({ remoteAddress } as Parameters<typeof handlers.onConnect>[0], resolve),
    );
  t.match(await answer('8.8.8.8'), { responseCode: 554, message: /local network only/ });
  t.match(await answer('::ffff:203.0.113.9'), { responseCode: 554 });
  t.equal(await answer('192.168.1.30'), null);
  t.equal(await answer('::ffff:10.0.0.2'), null);
});

t.test('a port already in use stops the start with one clear line', async (t) => {
  const holder = createServer();
  await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
  t.teardown(() => holder.close());
  const port = (holder.address() as { port: number }).port;
  const a = await testApp(t, { smtp: { port, host: '127.0.0.1', tls: undefined, trusted: [], segments: 2 } });
  await t.rejects(async () => a.app.ready(), {
    name: 'StartupError',
    message: new RegExp(`^SMTP port ${port} \\(SMS_GATEWAY_SMTP_PORT\\) is already in use`),
  });
});

t.test('the start screen, the status command and /metrics show the intake', async (t) => {
  const screen = await renderStartScreen({
    addresses: ['192.168.1.50'],
    key: 'k'.repeat(32),
    tty: false,
    mode: { mode: 'simulated', reason: 'test', smsEnabled: true },
    version: '0.5.0',
    smtp: { port: 2525, starttls: false },
  });
  t.match(screen, /E-mail to SMS: SMTP port 2525 \(plain\)/);
  t.ok(
    screen.split('\n').every((line) => [...line].length <= 80),
    'fits 80 columns',
  );

  const a = await smtpApp(t);
  await a.transport().sendMail(mail);
  await a
    .transport({ user: 'x', pass: 'wrong' })
    .sendMail(mail)
    .catch(() => {});
  const diag = await a.gateway.status.diagnostics();
  const text = formatStatus(await a.gateway.status.hostInfo(), diag);
  t.match(text, new RegExp(`E-mail: SMTP port ${a.port}, listening, 1 mails taken, 1 refused`));
  const metrics = (await a.get('/metrics')).body;
  t.match(metrics, /^sms_gateway_email_mails_accepted_total 1$/m);
  t.match(metrics, /^sms_gateway_email_refusals_total\{reason="auth_failed"\} 1$/m);
  const promtool = await run('promtool', ['check', 'metrics'], metrics);
  if (promtool.code === 127 || /ENOENT/.test(promtool.stderr))
    t.comment('promtool is not installed (apt-get install prometheus)');
  else t.equal(`${promtool.stdout}${promtool.stderr}`.trim(), '', 'promtool check metrics finds nothing');
});
