/// <reference lib="dom" />
// Conversations in the console (a real chromium): one thread per number with received and
// sent messages in time order and what a reply answers; the reply box queues; the opt-out
// toggle (confirmed first) opts the number out and back in; "Send again" on a failed message
// queues a new message; on a phone the list comes first and the thread has a back button.
import t, { type Test } from 'tap';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  hasChromium,
  openBrowser,
  openSignedIn,
  openView,
  overflowX,
  PHONE,
  signIn,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';

/** A conversation: received an hour ago, answered with tags, the answer's reply in a minute. */
async function conversation(t: Test) {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  appendSimulatedSms(gw.home, { from: '+15559870001', body: 'Is the shop open today?' }, Date.now() - 3_600_000);
  await gw.gateway.inbox.watcher.pollOnce();
  const sent = await gw.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '127.0.0.1',
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ to: '+1 555 987 0001', message: 'Yes, until 18:00.', tags: { ticket: 'T-7' } }),
  });
  t.equal(sent.statusCode, 200, 'sent');
  appendSimulatedSms(gw.home, { from: '+1 (555) 987-0001', body: 'Thanks!' }, Date.now() + 60_000);
  await gw.gateway.inbox.watcher.pollOnce();
  return gw;
}

t.test('a thread: in order, replies, opt-out toggle, send again', { skip }, async (t) => {
  const gw = await conversation(t);
  const { page, problems } = await openBrowser(t);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await openView(page, 'Conversations');
  await page.getByRole('button', { name: /Thanks!/ }).click();
  const thread = page.getByRole('region', { name: /987-0001/ });
  const bubbles = thread.getByRole('list', { name: 'Messages' }).locator('> li');
  await bubbles.nth(2).waitFor();
  t.same(
    await bubbles.locator('> bdi.body').allTextContents(),
    ['Is the shop open today?', 'Yes, until 18:00.', 'Thanks!'],
    'received and sent interleaved, oldest first, the number written three ways is one thread',
  );
  t.match(
    await bubbles.nth(2).locator('.answers').textContent(),
    /In reply to\s*Yes, until 18:00\.\s*ticket=T-7/,
    'what it answers, with its tags',
  );
  t.same(await axeViolations(page), [], 'a thread: axe');

  // The reply box queues to the thread's number and clears.
  await thread.getByLabel('Reply').fill('See you soon.');
  await thread.getByRole('button', { name: 'Queue reply' }).click();
  await thread.getByText('Reply queued.').waitFor();
  t.equal(await thread.getByLabel('Reply').inputValue(), '', 'the box is cleared');
  const history = (await gw.get('/api/messages?limit=100')).json().data as {
    id: string;
    to: string;
    body: string;
    status: string;
    reason: string | null;
  }[];
  t.ok(
    history.some((m) => m.body === 'See you soon.' && m.to === '+1 (555) 987-0001'),
    'the history has the reply, to the number as last written',
  );
  await bubbles.locator('bdi.body', { hasText: 'See you soon.' }).waitFor();

  // Opt out (asked first), a reply is refused and says why, opt back in.
  await thread.getByRole('button', { name: 'Opt out this number…' }).click();
  t.same((await gw.get('/api/opt-outs')).json().data, [], 'nothing changes before the confirmation');
  await thread.getByRole('button', { name: 'Yes, opt it out' }).click();
  await thread.getByText(/^Opted out since/).waitFor();
  t.same(
    ((await gw.get('/api/opt-outs')).json().data as { number: string }[]).map((o) => o.number),
    ['+15559870001'],
    'on the list',
  );
  await thread.getByLabel('Reply').fill('Are you there?');
  await thread.getByRole('button', { name: 'Queue reply' }).click();
  await thread.getByText(/^Not sent: \+1 \(555\) 987-0001 is on the opt-out list/).waitFor();
  t.equal(await thread.getByLabel('Reply').inputValue(), 'Are you there?', 'the text stays to send later');
  await bubbles.locator('bdi.body', { hasText: 'Are you there?' }).waitFor();
  const sendAgain = thread.getByRole('button', { name: 'Send again' });
  t.equal(await sendAgain.count(), 0, 'no "Send again" while the number is opted out');
  await thread.getByRole('button', { name: 'Opt back in' }).click();
  await thread.getByRole('button', { name: 'Opt out this number…' }).waitFor();
  t.same((await gw.get('/api/opt-outs')).json().data, [], 'off the list');

  // Send again: the failed (opted_out) one becomes a NEW queued message; the old one stays failed.
  const failed = ((await gw.get('/api/messages?status=failed')).json().data as { id: string; body: string }[]).find(
    (m) => m.body === 'Are you there?',
  );
  t.ok(failed, 'the refused reply was recorded as failed');
  await thread.getByRole('button', { name: 'Send again' }).click();
  const note = await thread.getByText(/^Queued again as a new message \(msg_/).textContent();
  const again = /\((msg_[^)]+)\)/.exec(note ?? '')?.[1];
  t.ok(again && again !== failed?.id, 'a new message id');
  const all = (await gw.get('/api/messages?limit=100')).json().data as {
    id: string;
    body: string;
    status: string;
    to: string;
  }[];
  t.same(
    all
      .filter((m) => m.body === 'Are you there?')
      .map((m) => [m.id, m.to])
      .sort(),
    [
      [failed?.id, '+1 (555) 987-0001'],
      [again, '+1 (555) 987-0001'],
    ].sort(),
    'two records with the same text and number',
  );
  t.equal(all.find((m) => m.id === failed?.id)?.status, 'failed', 'the old record is untouched');
  t.same(problems, [], 'no dialog, console error, page error or CSP violation');
});

t.test('at 360x740: the list, then the thread with a back button', { skip }, async (t) => {
  const gw = await conversation(t);
  const { page, problems } = await openBrowser(t, PHONE);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await openView(page, 'Conversations');
  const list = page.getByRole('list', { name: 'Conversations' });
  await list.waitFor();
  t.notOk(await page.getByRole('button', { name: '← All conversations' }).isVisible(), 'no thread yet');
  await list.getByRole('button', { name: /Thanks!/ }).click();
  await page.getByRole('button', { name: '← All conversations' }).waitFor();
  t.notOk(await list.isVisible(), 'the thread takes the screen');
  t.equal(await overflowX(page), 0, 'no sideways scrolling');
  t.same(await axeViolations(page), [], 'axe');
  await page.getByRole('button', { name: '← All conversations' }).click();
  await list.waitFor();
  t.ok(await list.isVisible(), 'back to the list');
  t.same(problems, []);
});

t.test(
  'at 360x740 by keyboard: opening a thread moves the focus into it, going back returns it to that thread',
  { skip },
  async (t) => {
    const gw = await conversation(t);
    const { page, problems } = await openSignedIn(t, gw, 'Conversations', PHONE);
    const list = page.getByRole('list', { name: 'Conversations' });
    const link = list.getByRole('button', { name: /Thanks!/ });
    await link.focus();
    await page.keyboard.press('Enter');
    const back = page.getByRole('button', { name: '← All conversations' });
    await back.waitFor();
    await page.waitForFunction(() => document.activeElement !== document.body);
    t.equal(
      await page.evaluate(() => document.activeElement?.textContent?.trim()),
      '← All conversations',
      'the focus is on the thread, not lost with the hidden list',
    );
    await page.keyboard.press('Enter');
    await list.waitFor();
    await page.waitForFunction(() => document.activeElement !== document.body);
    t.ok(await link.evaluate((e) => e === document.activeElement), 'back on the thread it came from');
    t.same(problems, []);
  },
);

const TAG_LINK = 'a tag of what a reply answers opens the History filtered by it; the open thread is in the address';
t.test(TAG_LINK, { skip }, async (t) => {
  const gw = await conversation(t);
  const { page, problems } = await openSignedIn(t, gw, 'Conversations');
  await page.getByRole('button', { name: /Thanks!/ }).click();
  const thread = page.getByRole('region', { name: /987-0001/ });
  await thread.getByText('In reply to').waitFor();
  t.match(page.url(), /#\/inbox\?open=15559870001$/, 'the open conversation is in the address');
  await page.reload();
  await thread.getByText('In reply to').waitFor();
  t.pass('a reload opens it again');
  await thread.getByRole('list', { name: 'Its tags' }).getByRole('link', { name: 'ticket=T-7' }).click();
  await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
  await page.getByText('1 matching.').waitFor();
  t.ok(await page.getByText('Tagged ticket=T-7').isVisible(), 'filtered by the tag');
  t.match(await page.locator('main .msg-line').first().textContent(), /Yes, until 18:00\..*ticket=T-7/);
  t.match(page.url(), /#\/history\?tag=ticket%3AT-7$/);
  t.same(problems, []);
});
