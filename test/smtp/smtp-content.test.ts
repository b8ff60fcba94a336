// What a mail's SMS says, whatever its MIME: quoted-printable and base64, common charsets
// (ISO-8859-1, windows-1252, KOI8-R, Shift_JIS, encoded-word subjects), an HTML-only body as its
// visible text (shortened to the segments), attachments and signatures left out, an 8-bit
// body without a charset, bare LF line endings, and a mail with no text at all (554).
import t from 'tap';
import { countSegments } from '../../src/sms/segments.js';
import { smtpApp, rawClient } from './smtp-app.js';

const envelope = { from: 'dev@lan', to: ['+15551234567@sms'] };
const lines = (...l: string[]) => l.join('\r\n');

t.test('transfer encodings and charsets are decoded', async (t) => {
  const a = await smtpApp(t, { segments: 3 });
  const send = (raw: string | Buffer) => a.transport().sendMail({ envelope, raw });
  await send(
    lines(
      'Subject: =?ISO-8859-1?Q?Caf=E9_alarm?=',
      'Content-Type: text/plain; charset=iso-8859-1',
      'Content-Transfer-Encoding: quoted-printable',
      '',
      'Temp=E9rature tr=E8s =',
      'haute',
      '',
    ),
  );
  await send(
    lines(
      'Subject: =?UTF-8?B?w5xiZXJ0ZW1wZXJhdHVy?=',
      'Content-Type: text/plain; charset=utf-8',
      'Content-Transfer-Encoding: base64',
      '',
      Buffer.from('Kühlraum über 8 °C').toString('base64'),
      '',
    ),
  );
  const koi = Buffer.from([0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4]); // "Привет" in KOI8-R
  await send(
    Buffer.concat([Buffer.from(lines('Subject: koi', 'Content-Type: text/plain; charset=koi8-r', '', '')), koi]),
  );
  const sjis = Buffer.from([0x93, 0xfa, 0x96, 0x7b]); // "日本" in Shift_JIS
  await send(
    Buffer.concat([Buffer.from(lines('Subject: sjis', 'Content-Type: text/plain; charset=shift_jis', '', '')), sjis]),
  );
  const cp1252 = Buffer.from([0x93, 0x4f, 0x4b, 0x94, 0x20, 0x80, 0x35]); // “OK” €5
  await send(
    Buffer.concat([
      Buffer.from(lines('Subject: cp', 'Content-Type: text/plain; charset=windows-1252', '', '')),
      cp1252,
    ]),
  );
  t.same(
    (await a.messages()).map((m) => m.body),
    [
      'Café alarm: Température très haute',
      'Übertemperatur: Kühlraum über 8 °C',
      'koi: Привет',
      'sjis: 日本',
      'cp: "OK" €5',
    ],
  );
});

t.test('an HTML-only mail from nodemailer becomes a 2-segment SMS of its visible text', async (t) => {
  const a = await smtpApp(t);
  const rows = Array.from(
    { length: 13000 },
    (_, i) => `<div style="color:red">Camera&nbsp;${i} saw <b>motion</b></div>`,
  );
  const head = '<html><head><style>div { color: red }</style><script>var x = 1;</script></head>';
  const html = `${head}<body><p>Motion &amp; sound</p>${rows.join('')}<!-- a comment --></body></html>`;
  t.ok(html.length > 700_000 && html.length < 1_000_000, `${html.length} bytes of HTML`);
  await a.transport().sendMail({ ...envelope, subject: 'Garden', html, messageId: '<cam-1@lan>' });
  const [sms] = await a.messages();
  t.match(sms!.body, /^Garden: Motion & sound Camera 0 saw motion Camera 1 saw motion .*\.\.\.$/);
  t.notMatch(sms!.body, /<|style|color|var x|comment|&nbsp;/, 'no tag, style, script, comment or entity');
  t.equal(sms!.segments, 2);
  t.equal(countSegments(sms!.body).segments, 2);
});

t.test('a 3 MB HTML-only mail is over the 1 MB limit: 552, nothing queued', async (t) => {
  const a = await smtpApp(t);
  const html = `<p>${'x'.repeat(3 * 1024 * 1024)}</p>`;
  const err = await a
    .transport()
    .sendMail({ ...envelope, subject: 'big', html })
    .then(
      () => undefined,
      (e: { responseCode?: number }) => e,
    );
  t.equal(err?.responseCode, 552);
  t.same(await a.messages(), []);
  t.equal((await a.diagnostics()).value.refused!.too_large, 1);
});

t.test('attachments and the signature are left out', async (t) => {
  const a = await smtpApp(t);
  await a.transport().sendMail({
    ...envelope,
    subject: 'Toner low',
    text: 'Black toner at 5%\n\n-- \nHP LaserJet\nSerial 1234',
    attachments: [
      { filename: 'status.txt', content: 'ATTACHED TEXT' },
      { filename: 'page.pdf', content: Buffer.alloc(5000, 1) },
    ],
  });
  t.same(
    (await a.messages()).map((m) => m.body),
    ['Toner low: Black toner at 5%'],
  );
});

t.test('an 8-bit body without a charset, bare LF line endings, no smuggling by a bare LF dot', async (t) => {
  const a = await smtpApp(t);
  const c = rawClient(a.port);
  t.match(await c.reply(), /^220 /);
  t.match(await c.ask('EHLO test'), /^250/);
  t.match(await c.ask(`AUTH PLAIN ${Buffer.from(`\0x\0${a.key}`).toString('base64')}`), /^235 /);
  t.match(await c.ask('MAIL FROM:<alarm@lan>'), /^250 /);
  t.match(await c.ask('RCPT TO:<+15551234567@sms>'), /^250 /);
  t.match(await c.ask('DATA'), /^354 /);
  // Bare LF inside the mail is read as line ends; only CRLF.CRLF ends it, so a bare "\n.\n" smuggles no second mail.
  const body = Buffer.concat([Buffer.from('Subject: Alarm\n\nZone 3 ge'), Buffer.from([0xf6]), Buffer.from('ffnet\n')]);
  c.send(
    Buffer.concat([
      body,
      Buffer.from('.\nMAIL FROM:<x@y>\nRCPT TO:<+15550000000@sms>\nDATA\nSubject: smuggled\r\n.\r\n'),
    ]),
  );
  t.match(await c.reply(), /^250 /, 'one mail');
  t.match(await c.ask('MAIL FROM:<alarm@lan>'), /^250 /);
  t.match(await c.ask('RCPT TO:<+15551234567@sms>'), /^250 /);
  t.match(await c.ask('DATA'), /^354 /);
  t.match(await c.ask('\r\n.'), /^554 The mail has neither a subject nor a text/);
  c.socket.destroy();
  t.same(
    (await a.messages()).map((m) => m.body),
    ['Alarm: Zone 3 ge?ffnet . MAIL FROM:<x@y> RCPT TO:<+15550000000@sms> DATA Subject: smuggled'],
  );
});
