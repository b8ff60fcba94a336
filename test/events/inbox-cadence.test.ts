// When the inbox is read (issue 37 part 1, docs/design.md, "The phone's battery" and
// "Replies"): every 5 s only in the 3 minutes after a hand-off or a received SMS, otherwise
// at the idle cadence (SMS_GATEWAY_INBOX_POLL_SECONDS, default 30); an idle hour stays in
// the inbox's share of the 150-call budget, the deep sweep included. The real app through
// its routes, its watcher on the fake clock (moved, never slept), reading a fake inbox
// whose every termux-sms-list call is counted at the list seam.
import t, { type Test } from 'tap';
import { loadConfig } from '../../src/core/config.js';
import { letSettle } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { fakeInbox } from '../helpers/fake-inbox.js';

/** The idle cadence the contract's settings give (the default). */
const IDLE_MS = loadConfig({ HOME: '/nonexistent' }).inboxPollMs;
/** The inbox's share of an idle hour's 150 Termux:API calls (device facts take the rest). */
const INBOX_BUDGET = 124;

async function running(t: Test, old = 0) {
  const inbox = fakeInbox();
  const a = await testApp(t, { inbox: true, inboxPollMs: IDLE_MS, inboxList: inbox.list });
  const add = inbox.receive;
  for (let i = 0; i < old; i++) add('+15550009', `old ${i}`, a.clock.now() - 86_400_000 + i * 60_000);
  a.gateway.inbox.start();
  await letSettle();
  const stored = async () => (await a.get('/api/inbox')).json().data as { body: string }[];
  /** termux-sms-list calls while the clock moves `ms` in 1 s steps. */
  const callsDuring = async (ms: number) => {
    const before = inbox.calls();
    for (let i = 0; i < ms / 1000; i++) await a.clock.tick(1000);
    return inbox.calls() - before;
  };
  /** Seconds until `body` is in GET /api/inbox (moving the clock 1 s at a time), at most `limitS`. */
  const secondsUntilStored = async (body: string, limitS: number) => {
    for (let s = 1; s <= limitS; s++) {
      await a.clock.tick(1000);
      if ((await stored()).some((m) => m.body === body)) return s;
    }
    return Infinity;
  };
  const receive = (from: string, body: string) => add(from, body, a.clock.now());
  return { a, receive, stored, callsDuring, secondsUntilStored };
}

t.test('the idle cadence is 30 s by default', async (t) => {
  t.equal(IDLE_MS, 30_000);
});

t.test('an idle hour with the inbox on stays within the inbox budget, the deep sweep included', async (t) => {
  // 150 messages: the top page is full, so the deep sweep has pages to read.
  const { callsDuring } = await running(t, 150);
  await callsDuring(10 * 60_000);
  const hour = await callsDuring(3_600_000);
  t.ok(hour <= INBOX_BUDGET, `${hour} termux-sms-list calls in an idle hour (at most ${INBOX_BUDGET})`);
  t.ok(hour >= 3_600_000 / IDLE_MS, 'every idle poll is still made');
});

t.test('a reply 2 minutes after a send is read within 10 s', async (t) => {
  const { a, receive, secondsUntilStored, callsDuring } = await running(t);
  await callsDuring(60_000);
  t.equal((await a.send({ to: '+15550001', message: 'Reply 1 to disarm' })).statusCode, 200);
  await callsDuring(120_000);
  receive('+15550001', '1');
  const s = await secondsUntilStored('1', 40);
  t.ok(s <= 10, `read ${s} s after its arrival`);
});

t.test('a received SMS outside any window is read within the idle cadence + 5 s', async (t) => {
  const { receive, secondsUntilStored, callsDuring } = await running(t);
  await callsDuring(10 * 60_000);
  // Just after a poll: the longest wait there is.
  let waited = 0;
  while ((await callsDuring(1000)) === 0) waited++;
  t.ok(waited > 20, 'idle: polls are far apart');
  receive('+15550002', 'garage door opened');
  const s = await secondsUntilStored('garage door opened', 60);
  t.ok(s <= IDLE_MS / 1000 + 5, `read ${s} s after its arrival`);
});

t.test('a received SMS opens the fast window: its conversation is read every 5 s for 3 minutes', async (t) => {
  const { receive, secondsUntilStored, callsDuring } = await running(t);
  await callsDuring(10 * 60_000);
  receive('+15550003', 'are you there?');
  const first = await secondsUntilStored('are you there?', 60);
  t.ok(first <= IDLE_MS / 1000 + 5, 'the first message at the idle cadence');
  await callsDuring(110_000);
  // Just after a poll, as above: at the idle cadence it would wait 30 s.
  while ((await callsDuring(1000)) === 0);
  receive('+15550003', 'hello?');
  t.ok((await secondsUntilStored('hello?', 40)) <= 10, 'the next one, 2 minutes later, within 10 s');
  // That one opened a new window: 3 minutes at 5 s, then the idle cadence again.
  t.equal(await callsDuring(180_000), 36, '36 reads in the 3 minutes after it');
  t.equal(await callsDuring(120_000), 4, 'then every 30 s again');
});
