// The e-mail intake through nodemailer and a raw conversation: one SMS per recipient with the
// subject and body, the Message-ID's repeat queuing nothing, AUTH (wrong key 535, none 530, a
// rotated key at once), recipients refused at RCPT with the reason, and the off switch.
import t from 'tap';
import { smtpApp, rawClient, replyCode } from './smtp-app.js';
import { testApp } from '../helpers/test-app.js';

t.test('a mail becomes one SMS per recipient, subject and body; the same Message-ID again adds nothing', async (t) => {
  const a = await smtpApp(t, {}, { contacts: [{ name: 'Alice', slug: 'alice', number: '+15550001111' }] });
  const mail = {
    from: 'ups@nas.lan',
    to: ['+15551234567@sms', 'alice@whatever.lan'],
    subject: 'UPS on battery',
    text: 'Mains lost at 03:12\n-- \nSent by the UPS daemon',
    messageId: '<ups-1@nas.lan>',
  };
  const info = await a.transport().sendMail(mail);
  t.match(info.response, /^250 /);
  const messages = await a.messages();
  t.same(
    messages.map((m) => [m.to, m.body, m.tags]),
    [
      ['+15551234567', 'UPS on battery: Mains lost at 03:12', { email: '<ups-1@nas.lan>' }],
      ['+15550001111', 'UPS on battery: Mains lost at 03:12', { email: '<ups-1@nas.lan>' }],
    ],
  );
  t.same(
    messages.map((m) => m.origin),
    ['email', 'email'],
    'origin email',
  );
  const again = await a.transport().sendMail(mail);
  t.match(again.response, /^250 .*repeat/);
  t.equal((await a.messages()).length, 2, 'nothing queued twice');
  const check = await a.diagnostics();
  t.equal(check.value.mailsAccepted, 2);
  t.equal(check.value.mailsRepeated, 1);
});

t.test('AUTH: a wrong key is 535, none is 530 at MAIL, a rotated key counts at once', async (t) => {
  const a = await smtpApp(t);
  const mail = { from: 'a@b', to: '+15551234567@sms', subject: 'x', text: 'y' };
  t.equal(await replyCode(a.transport({ user: 'x', pass: 'wrong' }).sendMail(mail)), 535);
  t.equal(await replyCode(a.transport(null).sendMail(mail)), 530);
  const old = a.key;
  a.keyFile.rotate();
  t.equal(await replyCode(a.transport({ user: 'x', pass: old }).sendMail(mail)), 535, 'the old key no longer works');
  const info = await a.transport({ user: 'anyone', pass: a.keyFile.current() }).sendMail(mail);
  t.match(info.response, /^250 /);
  const check = await a.diagnostics();
  t.equal(check.value.refused!.auth_failed, 2);
  t.equal(check.value.refused!.auth_missing, 1);
});

t.test('recipients are refused at RCPT with the reason: unknown, invalid, opted out, past 10', async (t) => {
  const a = await smtpApp(t);
  const opt = await a.app.inject({
    method: 'POST',
    url: '/api/opt-outs',
    remoteAddress: '192.168.1.20',
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ number: '+15559990000' }),
  });
  t.equal(opt.statusCode < 300, true, 'opted out over the API');
  const c = rawClient(a.port);
  t.match(await c.reply(), /^220 /);
  t.match(await c.ask('EHLO test'), /^250/);
  t.match(await c.ask(`AUTH PLAIN ${Buffer.from(`\0x\0${a.key}`).toString('base64')}`), /^235 /);
  t.match(await c.ask('MAIL FROM:<dev@lan>'), /^250 /);
  t.match(
    await c.ask('RCPT TO:<nobody@sms>'),
    /^550 <nobody@sms> is neither a phone number .* nor a contact name in SMS_GATEWAY_CONTACTS/,
  );
  t.match(await c.ask('RCPT TO:<12@sms>'), /^550 /);
  t.match(await c.ask('RCPT TO:<+15559990000@sms>'), /^550 recipient opted out/);
  for (let i = 0; i < 10; i++) t.match(await c.ask(`RCPT TO:<+1555000${String(i).padStart(4, '0')}@sms>`), /^250 /);
  t.match(await c.ask('RCPT TO:<+15550009999@sms>'), /^452 .*at most 10/);
  c.socket.destroy();
  const check = await a.diagnostics();
  t.equal(check.value.refused!.recipient_invalid, 2);
  t.equal(check.value.refused!.recipient_opted_out, 1);
  t.equal(check.value.refused!.too_many_recipients, 1);
});

t.test('off by default: no SMTP check facts, no port', async (t) => {
  const a = await testApp(t);
  await a.app.ready();
  const check = (await a.gateway.status.diagnostics()).checks.smtp;
  t.same(check, { status: 'ok', value: { enabled: false } });
});
