// sms-gateway send --tag key=value (repeatable): refused with a line naming the tag at fault
// (as the API validates tags) before anything is sent, and otherwise kept with the message,
// sent now or queued: the CLI run in this process against the real app listening on
// 127.0.0.1:8080 (under the machine-wide port lock).
import t, { type Test } from 'tap';
import { fakeClock } from '../../helpers/fake-clock.js';
import { holdPort8080 } from '../../helpers/gateway-process.js';
import { tempDir } from '../../helpers/paths.js';
import { runCli } from '../../helpers/cli.js';
import { testApp } from '../../helpers/test-app.js';
import { PORT } from '../../../src/core/runtime.js';
import { addTag, type TagList } from '../../../src/cli/commands/send-tags.js';
import { TagsSchema } from '../../../src/store/message-record.js';

async function listening(t: Test) {
  await holdPort8080(t);
  const a = await testApp(t, { clock: fakeClock(Date.now()) });
  await a.app.listen({ port: PORT, host: '127.0.0.1' });
  // The CLI shares this process's fetch pool: a connection to an earlier app is used up here.
  for (let i = 0; i < 3; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/health`).then(
      (r) => r.text().then(() => r.ok),
      () => false,
    );
    if (ok) break;
  }
  return { ...a, env: { SMS_GATEWAY_HOME: a.home } };
}

t.test('a bad --tag is a usage error (exit 2) naming it, and nothing is sent', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  const nine = Array.from({ length: 9 }, (_, i) => ['--tag', `k${i}=v`]).flat();
  const cases: [string[], string][] = [
    [['--tag'], '--tag takes key=value, e.g. --tag order=1042'],
    [['--tag', 'order'], '--tag takes key=value, e.g. --tag order=1042'],
    [['--tag', '=1042'], '--tag "": a tag name must be 1 to 32 letters, digits, _ . or -'],
    [['--tag', 'ord er=1'], '--tag "ord er": a tag name must be 1 to 32 letters, digits, _ . or -'],
    [
      ['--tag', `${'k'.repeat(33)}=1`],
      `--tag "${'k'.repeat(33)}": a tag name must be 1 to 32 letters, digits, _ . or -`,
    ],
    [['--tag', `note=${'v'.repeat(65)}`], "--tag note: a tag's value must be at most 64 characters (this one has 65)"],
    [['--tag', 'a=1', '--tag', 'a=2'], '--tag a is given twice'],
    [['--tag', '__proto__=x'], '--tag __proto__: the gateway refuses this name in any request'],
    [nine, 'at most 8 tags (--tag k8 is one more)'],
  ];
  for (const [tagArgs, line] of cases) {
    const r = await runCli(['send', '+15550001', 'hi', ...tagArgs], env);
    t.equal(r.code, 2, tagArgs.join(' ').slice(0, 60));
    t.equal(r.err.split('\n')[0], `sms-gateway send: ${line}`);
    t.match(r.err, /--tag KEY=VALUE/, 'with the usage');
  }
});

t.test('tags go with a message sent now and with queued ones', async (t) => {
  const a = await listening(t);
  const now = await runCli(
    [
      'send',
      '+1 555 000 1111',
      'Alarm. Reply 1 to disarm',
      '--tag',
      'alarm=garage',
      '--tag',
      'note=a=b',
      '--tag',
      'empty=',
      '--json',
    ],
    a.env,
  );
  t.equal(now.code, 0, now.err);
  const id = JSON.parse(now.out).messageId as string;
  const record = (await a.get(`/api/messages/${id}`)).json().data;
  t.same(record.tags, { alarm: 'garage', note: 'a=b', empty: '' }, 'the value is everything after the first =');

  const eight = Array.from({ length: 8 }, (_, i) => ['--tag', `k${i}=${'v'.repeat(64)}`]).flat();
  const refused = await runCli(
    ['send', '+15550100001', '+15550100002', 'Reminder', ...eight, '--tag', 'batch=7'],
    a.env,
  );
  t.equal(refused.code, 2, 'a ninth tag is refused before anything is queued');
  const many = await runCli(['send', '+15550100001', '+15550100002', 'Reminder', ...eight], a.env);
  t.equal(many.code, 0, many.err);
  const page = (await a.get('/api/messages?limit=10')).json();
  t.equal(page.pagination.total, 3, 'the refused send queued nothing');
  const reminders = page.data.filter((m: { body: string }) => m.body === 'Reminder');
  t.equal(reminders.length, 2);
  const longest = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`k${i}`, 'v'.repeat(64)]));
  for (const m of reminders) t.same(m.tags, longest, 'eight tags of 64 characters: the most the API takes');

  const plain = await runCli(['send', '+15550100003', 'no tags', '--queue', '--json'], a.env);
  t.equal(plain.code, 0, plain.err);
  t.same(JSON.parse(plain.out)[0].tags, {}, 'no --tag: no tags');
});

t.test("a tag's value is counted in characters as the API counts them (an emoji is one)", async (t) => {
  const emoji = (n: number) => '\u{1F600}'.repeat(n);
  const tags: TagList = new Map();
  t.equal(addTag(tags, `mood=${emoji(64)}`), undefined, '64 emoji: the API takes them');
  t.ok(TagsSchema.safeParse({ mood: emoji(64) }).success, '(the API does)');
  t.equal(
    addTag(tags, `more=${emoji(65)}`),
    "--tag more: a tag's value must be at most 64 characters (this one has 65)",
  );
  t.notOk(TagsSchema.safeParse({ more: emoji(65) }).success, '(the API does not)');
});
