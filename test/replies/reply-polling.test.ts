// After a hand-off the inbox watcher reads the inbox every 5 s for 3 minutes, then at its
// normal cadence again (docs/receiving.md, replies): a reply in that window is announced within
// 10 s. The real app, its watcher running on the fake clock, reading a fake inbox whose
// reads are counted.
import t from 'tap';
import type { Sender } from '../../src/sms/senders.js';
import { letSettle } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { fakeInbox } from '../helpers/fake-inbox.js';

const POLL_MS = 30_000;

async function running(t: Parameters<typeof testApp>[0], sender?: Sender) {
  const inbox = fakeInbox();
  const a = await testApp(t, {
    inbox: true,
    inboxPollMs: POLL_MS,
    inboxList: inbox.list,
    ...(sender ? { sender } : {}),
  });
  a.gateway.inbox.start();
  await letSettle();
  const receive = (from: string, body: string) => inbox.receive(from, body, a.clock.now());
  const stored = async () =>
    (await a.get('/api/inbox')).json().data as { body: string; inReplyTo: { id: string } | null }[];
  /** Reads of the inbox while the clock moves `ms` in 1 s steps. */
  const readsDuring = async (ms: number) => {
    const before = inbox.reads();
    for (let i = 0; i < ms / 1000; i++) await a.clock.tick(1000);
    return inbox.reads() - before;
  };
  return { a, receive, stored, readsDuring };
}

t.test('a reply 20 s after a hand-off is announced by the next 5 s read', async (t) => {
  const { a, receive, stored, readsDuring } = await running(t);
  t.equal(await readsDuring(60_000), 2, 'idle: one read every 30 s');
  const id = (await a.send({ to: '+15550001', message: 'Reply 1 to disarm', tags: { alarm: 'garage' } })).json()
    .messageId as string;
  await readsDuring(19_000);
  receive('+15550001', '1');
  await readsDuring(5_000);
  const got = await stored();
  t.equal(got.length, 1, 'announced within 5 s of its arrival');
  t.same(got[0]?.inReplyTo, { id, tags: { alarm: 'garage' } });
});

t.test('every 5 s for 3 minutes after a hand-off, then every 30 s again', async (t) => {
  const { a, readsDuring } = await running(t);
  await readsDuring(30_000);
  await a.send({ to: '+15550001', message: 'hello' });
  t.equal(await readsDuring(180_000), 36, '3 minutes at 5 s: 36 reads');
  t.equal(await readsDuring(120_000), 4, 'then the normal cadence: 4 reads in 2 minutes');
});

t.test('a hand-off the phone refused does not speed the reading up', async (t) => {
  const { a, readsDuring } = await running(t, {
    send: () => Promise.resolve({ ok: false as const, reason: 'termux_api_error' as const, detail: 'refused' }),
  });
  await readsDuring(30_000);
  t.equal((await a.send({ to: '+15550001', message: 'hello' })).statusCode, 502);
  t.equal(await readsDuring(60_000), 2, 'still one read every 30 s');
});

t.test('only while the watcher runs: a hand-off with the watcher off reads nothing', async (t) => {
  let reads = 0;
  const a = await testApp(t, {
    inboxPollMs: POLL_MS,
    inboxList: () => {
      reads++;
      return Promise.resolve({ ok: true as const, entries: [] });
    },
  });
  a.gateway.inbox.start(); // nobody listens: the watcher stays off
  await a.send({ to: '+15550001', message: 'hello' });
  for (let i = 0; i < 60; i++) await a.clock.tick(1000);
  t.equal(reads, 0);
});
