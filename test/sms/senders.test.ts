// The termux sender against a fake termux-sms-send on PATH: the real spawn, stdin,
// timeout and parse code runs; the fake records argv and stdin byte for byte.
import t from 'tap';
import { runCommand } from '../../src/device/termux.js';
import { createTermuxSender, termuxSmsArgs } from '../../src/sms/senders.js';
import { fakeTermux } from '../helpers/fake-termux.js';

const hostile = [
  '-h',
  '-n 1',
  '$(touch pwned)',
  '`touch pwned`',
  'a;b|c&&d',
  'back\\slash \\n \\t \\\\',
  'line one\nline two\r\nthree',
  '   leading and trailing spaces   ',
  '"quotes" \'single\'',
  '%s %d %n',
  'emoji 😀 and кириллица',
  '-',
  '--',
];

t.test('the text arrives byte-exact on stdin and never in argv', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const sender = createTermuxSender({ timeoutMs: 5000, env: { ...fake.env } });
  for (const text of hostile) {
    const r = await sender.send({ number: '+15551234567', text, simSlot: 1 });
    t.same(r, { ok: true }, JSON.stringify(text));
  }
  const calls = fake.calls('termux-sms-send');
  t.equal(calls.length, hostile.length);
  hostile.forEach((text, i) => {
    t.same(calls[i]!.argv, ['-n', '+15551234567', '-s', '0'], `argv for ${JSON.stringify(text)}`);
    t.equal(calls[i]!.stdin.toString('utf8'), text, `stdin for ${JSON.stringify(text)}`);
  });
});

t.test('argv elements reach the command literally: no shell ever expands them', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const hostileArgs = ['-n', '$(touch pwned)', '-s', '`id` ; echo *'];
  await runCommand('termux-sms-send', hostileArgs, { timeoutMs: 5000, expect: 'none', input: 'x', env: fake.env });
  // Through a shell, $(...) and `...` would have run (and left nothing in argv) and * would
  // have listed files: the recorded argv would differ.
  t.same(fake.calls('termux-sms-send')[0]!.argv, hostileArgs);
});

t.test('simSlot 2 becomes -s 1', async (t) => {
  t.same(termuxSmsArgs({ number: '123', text: 'x', simSlot: 2 }), ['-n', '123', '-s', '1']);
  const fake = fakeTermux(t, ['termux-sms-send']);
  await createTermuxSender({ timeoutMs: 5000, env: fake.env }).send({ number: '123', text: 'x', simSlot: 2 });
  t.same(fake.calls('termux-sms-send')[0]!.argv, ['-n', '123', '-s', '1']);
});

t.test('fails, permission error with exit 0, hang past the timeout, slow but in time, missing', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const sender = createTermuxSender({ timeoutMs: 3000, env: { ...fake.env, FAKE_TERMUX_SLOW_SECONDS: '0.5' } });
  const h = { number: '123', text: 'x', simSlot: 1 };
  fake.mode('termux-sms-send', 'fail');
  let r = await sender.send(h);
  t.equal(!r.ok && r.reason, 'termux_api_error');
  fake.mode('termux-sms-send', 'permission');
  r = await sender.send(h);
  t.equal(!r.ok && r.reason, 'permission_denied');
  t.match(!r.ok && r.detail, /android\.permission\.SEND_SMS/);
  fake.mode('termux-sms-send', 'error');
  r = await sender.send(h);
  t.equal(!r.ok && r.reason, 'termux_api_error');
  fake.mode('termux-sms-send', 'hang');
  const started = Date.now();
  r = await sender.send(h);
  t.equal(!r.ok && r.reason, 'timeout');
  t.ok(Date.now() - started < 6000, 'returned soon after the 3 s timeout');
  fake.mode('termux-sms-send', 'slow');
  r = await sender.send(h);
  t.same(r, { ok: true }, 'a slow answer within the timeout is a success');
  const missing = createTermuxSender({ timeoutMs: 1000, env: { PATH: '/nonexistent' } });
  r = await missing.send(h);
  t.equal(!r.ok && r.reason, 'sender_unavailable');
});

t.test('a slot the phone has since said it lacks is not handed over; an unknown count refuses nothing', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  let count: number | null = null;
  const sender = createTermuxSender({ timeoutMs: 5000, env: fake.env, simCount: async () => count });
  t.same(await sender.send({ number: '123', text: 'x', simSlot: 2 }), { ok: true }, 'not told yet: handed over');
  count = 1;
  t.same(await sender.send({ number: '123', text: 'y', simSlot: 2 }), {
    ok: false,
    reason: 'termux_api_error',
    detail: 'SIM slot 2 does not exist; this phone reports 1 SIM slot',
  });
  t.same(await sender.send({ number: '123', text: 'z', simSlot: 1 }), { ok: true }, 'slot 1 still handed over');
  t.same(
    fake.calls('termux-sms-send').map((c) => c.argv[3]),
    ['1', '0'],
    'termux-sms-send ran for the two slots that exist (or may)',
  );
});
