// Hostile input to the intake: a 10 MB mail (552, the next mail still served), 1000
// recipients (refused past 10), a client dribbling bytes (dropped at the session's deadline
// while others are served), and a mail bomb of 200 mails against a nearly full queue (each
// mail queued or answered 451, nothing lost, nothing doubled when the device retries).
import t from 'tap';
import { fillQueue } from '../helpers/fill-queue.js';
import { smtpApp, rawClient, replyCode } from './smtp-app.js';

const auth = (key: string) => `AUTH PLAIN ${Buffer.from(`\0x\0${key}`).toString('base64')}`;

t.test('a 10 MB mail is 552 (read and dropped past the limit); the next mail is served', async (t) => {
  const a = await smtpApp(t);
  const text = 'A'.repeat(10 * 1024 * 1024);
  const sending = a.transport().sendMail({ from: 'a@lan', to: '+15551234567@sms', subject: 'huge', text });
  t.equal(await replyCode(sending), 552);
  t.equal(await replyCode(a.transport().sendMail({ from: 'a@lan', to: '+15551234567@sms', subject: 'small' })), 250);
  t.same(
    (await a.messages()).map((m) => m.body),
    ['small'],
  );
});

t.test('1000 recipients: the first 10 are taken, the rest refused at RCPT', async (t) => {
  const a = await smtpApp(t);
  const c = rawClient(a.port);
  await c.reply();
  await c.ask('EHLO test');
  await c.ask(auth(a.key));
  await c.ask('MAIL FROM:<bomb@lan>');
  const codes: string[] = [];
  for (let i = 0; i < 1000; i++)
    codes.push((await c.ask(`RCPT TO:<+1555${String(i).padStart(7, '0')}@sms>`)).slice(0, 3));
  t.equal(codes.filter((code) => code === '250').length, 10);
  t.equal(codes.filter((code) => code === '452').length, 990);
  t.match(await c.ask('DATA'), /^354 /);
  t.match(await c.ask('Subject: ten\r\n\r\nto ten\r\n.'), /^250 /);
  c.socket.destroy();
  t.equal((await a.messages()).length, 10);
});

t.test('a client dribbling bytes is dropped at the deadline and holds nobody up', async (t) => {
  t.setTimeout(20_000);
  const a = await smtpApp(t, { sessionMs: 1500, idleMs: 1000 });
  const slow = rawClient(a.port);
  t.match(await slow.reply(), /^220 /);
  let dribbling = true;
  void (async () => {
    // Never idle for the idle timeout, never done: only the session's deadline ends it.
    while (dribbling && !slow.socket.destroyed) {
      slow.send('x');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const mail = { from: 'a@lan', to: '+15551234567@sms', subject: 'meanwhile' };
  t.equal(await replyCode(a.transport().sendMail(mail)), 250, 'another client is served meanwhile');
  await slow.closed;
  dribbling = false;
  t.pass('the dribbling client was dropped');
  t.same(
    (await a.messages()).map((m) => m.body),
    ['meanwhile'],
  );
});

t.test('200 mails in a minute against a queue with room for 150: each queued once or refused 451', async (t) => {
  const a = await smtpApp(t);
  fillQueue(a.db, a.clock, 150);
  // One connection for all (a pool), as a device sending a burst would: the intake's work is what is timed, not TCP set-up.
  const nodemailer = (await import('nodemailer')).default;
  const login = { user: 'x', pass: a.key };
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: a.port,
    ignoreTLS: true,
    pool: true,
    maxConnections: 1,
    auth: login,
  });
  const send = (i: number) =>
    replyCode(
      transport.sendMail({ from: 'cam@lan', to: '+15551234567@sms', subject: `motion ${i}`, messageId: `<m${i}@cam>` }),
    );
  const first: (number | undefined)[] = [];
  for (let i = 0; i < 200; i++) first.push(await send(i));
  const accepted = first.filter((c) => c === 250).length;
  t.ok(accepted >= 150 && accepted < 200, `${accepted} queued (150 fit, the lane may have taken one)`);
  t.equal(first.filter((c) => c === 451).length, 200 - accepted, 'the others: 451, try later');
  t.same(first.slice(0, 150), Array(150).fill(250), 'the first 150 fit');
  // The device retries every mail: the queued ones are repeats, the others still find the queue full.
  const again: (number | undefined)[] = [];
  for (let i = 0; i < 200; i++) again.push(await send(i));
  t.same(again, first);
  const page = async (offset: number) =>
    (await a.get(`/api/messages?limit=100&offset=${offset}&q=motion`)).json().data as { body: string }[];
  const bodies = [...(await page(0)), ...(await page(100)), ...(await page(200))].map((m) => m.body);
  t.equal(bodies.length, accepted, 'one SMS per queued mail');
  t.equal(new Set(bodies).size, accepted, 'none doubled');
  const waiting = (await a.get('/api/messages?limit=1&status=queued')).json().pagination.total as number;
  t.ok(waiting <= 10_000, 'the queue holds its limit');
  const check = await a.diagnostics();
  t.equal(check.value.refused!.queue_full, 2 * (200 - accepted));
  t.equal(check.value.mailsRepeated, accepted);
  transport.close();
});
