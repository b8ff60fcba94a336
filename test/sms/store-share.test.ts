// One termux-sms-list for every reader whose times meet (issue 37 part 1): after a hand-off
// the inbox watcher polls every 5 s and the sent-box confirmation looks for the same
// message at 5, 15, 30 ... s; a due look waits for the watcher's next poll, which reads the
// whole store (-t all) for both. The real app in real mode through its send route, on the
// fake clock: the watcher reads a counted phone store at the list seam (inbox and sent
// messages, -t inbox or all as Termux:API pages them); the confirmation's own reads go to
// the fake termux-sms-list on PATH, counted by the fake.
import t, { type Test } from 'tap';
import type { SmsEntry, SmsListResult } from '../../src/device/sms-list.js';
import type { HandoffRequest } from '../../src/sms/handoff.js';
import { letSettle } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { testApp } from '../helpers/test-app.js';
import { waitFor } from '../helpers/wait.js';

async function phone(t: Test, o: { inbox?: boolean; old?: number; hangWhole?: boolean; unreadable?: boolean } = {}) {
  const store: SmsEntry[] = [];
  const calls: string[] = [];
  const hung: ((r: SmsListResult) => void)[] = [];
  /** What hangs answers at last (a timeout), so the watcher can stop. */
  const release = () => hung.splice(0).forEach((answer) => answer({ ok: false, failure: 'timeout', detail: 'hung' }));
  const fake = fakeTermux(t, ['termux-sms-list']);
  fake.output('termux-sms-list', '[]');
  let now = () => 0;
  const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
  const add = (type: string, address: string, body: string, at = now()) =>
    store.push({
      id: store.length + 1,
      threadId: 1,
      type,
      address,
      sender: null,
      received: stamp(at),
      body,
      read: true,
    });
  const list = (q: { box: string; limit: number; offset?: number }): Promise<SmsListResult> => {
    calls.push(q.box);
    if (o.unreadable)
      return Promise.resolve({ ok: false, failure: 'api_error', detail: 'no permission' } as SmsListResult);
    if (o.hangWhole && q.box === 'all') return new Promise<SmsListResult>((resolve) => hung.push(resolve));
    // As Termux:API pages: newest first by date, printed oldest first.
    const rows = store
      .filter((e) => q.box === 'all' || e.type === q.box)
      .sort((x, y) => x.received!.localeCompare(y.received!) || x.id - y.id);
    const end = rows.length - (q.offset ?? 0);
    return Promise.resolve({ ok: true, entries: rows.slice(Math.max(0, end - q.limit), Math.max(0, end)) });
  };
  const sender = {
    send(h: HandoffRequest) {
      add('sent', h.number, h.text);
      return Promise.resolve({ ok: true as const });
    },
  };
  const a = await testApp(t, {
    runtime: { mode: 'real', simulation: 'none' },
    confirmSends: true,
    deviceEnv: fake.env,
    inbox: o.inbox ?? true,
    inboxPollMs: 30_000,
    inboxList: list,
    sender,
  });
  now = () => a.clock.now();
  for (let i = 0; i < (o.old ?? 150); i++)
    add(i % 2 ? 'sent' : 'inbox', '+15550009', `old ${i}`, a.clock.now() - 86_400_000 + i * 60_000);
  a.gateway.inbox.start();
  await letSettle();
  /** Moves the clock `ms` in 1 s steps. */
  const run = async (ms: number) => {
    for (let i = 0; i < ms / 1000; i++) await a.clock.tick(1000);
  };
  const status = async (id: string) => ((await a.get(`/api/messages/${id}`)).json().data as { status: string }).status;
  const stored = async () => ((await a.get('/api/inbox')).json().data as { body: string }[]).map((m) => m.body);
  return { a, add, calls, fake, run, status, stored, release };
}

t.test('the watcher and the sent-box confirmation meeting after a hand-off share one call', async (t) => {
  const p = await phone(t);
  await p.run(60_000);
  p.calls.length = 0;
  const res = await p.a.send({ to: '+15550001', message: 'Reply 1 to disarm' });
  t.equal(res.statusCode, 200);
  const id = res.json().messageId as string;
  t.equal(await p.status(id), 'queued', 'waiting for the sent box');
  await p.run(10_000);
  t.equal(await p.status(id), 'sent', 'confirmed from the sent box within 10 s');
  await p.run(170_000);
  t.equal(p.fake.calls('termux-sms-list').length, 0, 'the confirmation made no call of its own');
  t.ok(p.calls.includes('all'), 'a poll read the whole store for it');
  t.equal(p.calls.length, 36, '3 minutes at 5 s: 36 calls in all, none added by the confirmation');
});

t.test('what a shared read shows reaches every reader: a reply on the same page is announced', async (t) => {
  const p = await phone(t);
  await p.run(60_000);
  const id = (await p.a.send({ to: '+15550001', message: 'Reply 1 to disarm' })).json().messageId as string;
  p.add('inbox', '+15550001', '1');
  p.calls.length = 0;
  await p.run(5_000);
  t.same(p.calls, ['all'], 'one call, the whole store');
  t.equal(await p.status(id), 'sent', 'the confirmation got it');
  t.same(await p.stored(), ['1'], 'and the inbox');
});

t.test('with the watcher off the confirmation reads on its own, at its own times', async (t) => {
  const p = await phone(t, { inbox: false });
  const id = (await p.a.send({ to: '+15550001', message: 'hello' })).json().messageId as string;
  await p.run(4_000);
  t.equal(p.fake.calls('termux-sms-list').length, 0, 'not before its time');
  await p.run(1_000);
  // The fake is a real process: its call is recorded on real time.
  await waitFor('its own look', () => p.fake.calls('termux-sms-list').length > 0 || undefined);
  t.equal(p.fake.calls('termux-sms-list').length, 1, 'its own look 5 s after the hand-off');
  t.same(p.calls, [], 'the inbox is not read');
  t.equal(await p.status(id), 'queued', 'the fake store has no sent entry: looked for again later');
});

t.test('a poll that never answers holds the confirmation up at most 15 s: then it reads on its own', async (t) => {
  const p = await phone(t, { hangWhole: true });
  await p.run(60_000);
  await p.a.send({ to: '+15550001', message: 'hello' });
  await p.run(5_000);
  t.same(p.calls.slice(-1), ['all'], 'the poll went for the whole store (and hangs)');
  await p.run(14_000);
  t.equal(p.fake.calls('termux-sms-list').length, 0, 'the look waits for it');
  await p.run(1_000);
  await waitFor('its own look', () => p.fake.calls('termux-sms-list').length > 0 || undefined);
  t.equal(p.fake.calls('termux-sms-list').length, 1, '15 s after it fell due, its own call');
  p.release();
});

t.test('a received message the whole-store page could not show is announced at the next inbox read', async (t) => {
  const p = await phone(t, { old: 50 });
  await p.run(60_000);
  p.add('inbox', '+15550003', 'earlier');
  await p.run(40_000);
  t.same(await p.stored(), ['earlier'], 'announced: the page below will show it as seen');
  // 97 sends dated 104 to 200 s ago fill the whole-store page below it; a received SMS
  // dated an hour ago (the phone's clock was set back) sorts below that page.
  for (let i = 0; i < 97; i++) p.add('sent', '+15550008', `bulk ${i}`, p.a.clock.now() - 200_000 + i * 1000);
  p.add('inbox', '+15550002', 'dated an hour ago', p.a.clock.now() - 3_600_000);
  const id = (await p.a.send({ to: '+15550001', message: 'hello' })).json().messageId as string;
  p.add('inbox', '+15550001', 'a reply');
  p.calls.length = 0;
  await p.run(5_000);
  t.same(p.calls, ['all'], 'the whole-store page stood in for the inbox page');
  t.equal(await p.status(id), 'sent');
  await p.run(5_000);
  t.same(
    (await p.stored()).sort(),
    ['a reply', 'dated an hour ago', 'earlier'],
    'the one below it at the next inbox read',
  );
  await p.run(60_000);
  t.equal((await p.stored()).length, 3, 'each once');
});

t.test(
  'a watcher that has never read the inbox is not waited for: the confirmation reads at its own time',
  async (t) => {
    const p = await phone(t, { unreadable: true });
    await p.run(60_000);
    const res = await p.a.send({ to: '+15550001', message: 'Reply 1 to disarm' });
    t.equal(res.statusCode, 200);
    t.equal(p.fake.calls('termux-sms-list').length, 0, 'no look yet');
    await p.run(6_000);
    // The fake is a real process: its call is recorded on real time (3 s of it; the clock stands still meanwhile).
    await waitFor('its own look', () => p.fake.calls('termux-sms-list').length > 0 || undefined, 3_000).catch(
      () => undefined,
    );
    t.equal(
      p.fake.calls('termux-sms-list').length,
      1,
      'its first look at 5 s, not after waiting for a poll that cannot serve it',
    );
  },
);
