/// <reference lib="dom" />
// Conversations past the view's read (a real chromium): a number whose messages are all older
// than the newest 100 received and 100 sent is reached with "Load older conversations" at the
// end of the list (two requests a click), and stays listed while the view keeps polling; a
// thread's opt-out state is true for a listed number beyond the newest 100 entries of the list.
// Screenshots go to SHOTS_DIR when set.
import t, { type Test } from 'tap';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  DESKTOP,
  hasChromium,
  numbers,
  openBrowser,
  openView,
  overflowX,
  PHONE,
  queueAhead,
  SETUP_CALLER,
  shot,
  signIn,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';
const DAY = 86_400_000;

/** An old conversation (a question 3 days ago, its answer a minute later), then 105 received from another number and 100 sends elsewhere. */
async function buriedConversation(t: Test) {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  appendSimulatedSms(gw.home, { from: '+15557780001', body: 'Old thread: is the order ready?' }, Date.now() - 3 * DAY);
  await gw.gateway.inbox.watcher.pollOnce();
  await queueAhead(gw, ['+15557780001'], 'Old thread: yes, ready');
  gw.db
    .prepare(`UPDATE messages SET created_at = created_at - ${3 * DAY - 60_000} WHERE body LIKE 'Old thread%'`)
    .run();
  await queueAhead(gw, numbers(600, 100), 'Routine reminder');
  const start = Date.now() - DAY;
  for (let i = 1; i <= 105; i++)
    appendSimulatedSms(gw.home, { from: '+15557770009', body: `answer ${i}` }, start + i * 60_000);
  for (let polls = 0; polls < 20; polls++) {
    await gw.gateway.inbox.watcher.pollOnce();
    if ((await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().pagination.total >= 106) break;
  }
  return gw;
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  t.test(
    `"Load older conversations" at the end of the list reaches a number beyond the view's read, and it stays (${size})`,
    { skip },
    async (t) => {
      const gw = await buriedConversation(t);
      t.equal(
        (await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().pagination.total,
        106,
        'the inbox holds all 106',
      );
      const { page, problems } = await openBrowser(t, viewport);
      page.setDefaultTimeout(8000);
      const olderReads: string[] = [];
      page.on('request', (r) => {
        if (/\/api\/(inbox|messages)\?.*offset=/.test(r.url())) olderReads.push(r.url());
      });
      await page.goto(`${gw.base}/`);
      await signIn(page, gw.key);
      await openView(page, 'Conversations');
      const list = page.getByRole('list', { name: 'Conversations' });
      await list.getByRole('button', { name: /answer 105/ }).waitFor();
      t.equal(
        await list.getByRole('button', { name: /Old thread/ }).count(),
        0,
        'not in the newest 100 of either list',
      );
      t.match(
        await page.locator('.list-end').textContent(),
        /every conversation with a message since .*Load older conversations/,
        'the list says from when it is complete',
      );
      await page.locator('.list-end').scrollIntoViewIfNeeded();
      await shot(page, `older-conversations-before-${size}`, false);

      const button = page.getByRole('button', { name: 'Load older conversations' });
      await button.focus();
      await page.keyboard.press('Enter');
      await page.getByRole('button', { name: 'No older conversations' }).waitFor();
      t.equal(olderReads.length, 2, `one request a list for the click (${olderReads.join(' ')})`);
      const old = list.getByRole('button', { name: /15557780001/ });
      t.equal(await old.count(), 1, 'the old conversation is listed');
      t.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'No older conversations',
        'the focus stays on the button',
      );
      t.equal(await page.locator('.list-end p').count(), 0, 'nothing older: no line about it');

      // The view polls on, and five more sends elsewhere push more out of its read: the old thread stays.
      await queueAhead(gw, numbers(800, 5), 'Another reminder');
      for (let reads = 0; reads < 2; reads++)
        await page.waitForResponse((r) => r.url().endsWith('/api/messages?limit=100'));
      await page.evaluate(() => new Promise(requestAnimationFrame));
      t.equal(await old.count(), 1, 'still listed after the view read again');
      t.equal(await list.getByRole('button', { name: /Another reminder/ }).count(), 5, 'the new sends are listed too');
      t.equal(olderReads.length, 2, 'polling reads nothing older by itself');

      await old.scrollIntoViewIfNeeded();
      await shot(page, `older-conversations-${size}`, false);
      await old.click();
      const bodies = page
        .getByRole('region', { name: /778/ })
        .getByRole('list', { name: 'Messages' })
        .locator('> li > bdi.body');
      await bodies.nth(1).waitFor();
      t.same(
        await bodies.allTextContents(),
        ['Old thread: is the order ready?', 'Old thread: yes, ready'],
        'both messages, in order',
      );
      t.equal(
        await page.getByRole('button', { name: 'No older messages' }).count(),
        1,
        'the list was read to its start: the thread knows it has all',
      );
      if (size === 'phone') t.equal(await overflowX(page), 0, 'no sideways scrolling');
      t.same(await axeViolations(page), [], 'axe');
      t.same(problems, []);
    },
  );
}

t.test(
  'a thread shows its number opted out when the entry is beyond the newest 100 of the list, and back in once taken off',
  { skip },
  async (t) => {
    const gw = await consoleApp(t, { inbox: true });
    gw.gateway.inbox.start();
    await gw.gateway.inbox.watcher.pollOnce();
    appendSimulatedSms(gw.home, { from: '+15557790001', body: 'STOP sending me reminders' }, Date.now() - 60_000);
    await gw.gateway.inbox.watcher.pollOnce();
    const add = gw.db.prepare(`INSERT INTO opt_outs (number, opted_out, at, by) VALUES (?, 1, ?, 'api')`);
    add.run('15557790001', Date.now() - 2 * DAY); // written without + here: the same number to the list
    numbers(900, 150).forEach((n, i) => add.run(n, Date.now() - DAY + i * 1000));
    const { page, problems } = await openBrowser(t);
    page.setDefaultTimeout(8000);
    const listReads: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/opt-outs')) listReads.push(r.url());
    });
    await page.goto(`${gw.base}/`);
    await signIn(page, gw.key);
    await openView(page, 'Conversations');
    await page.getByRole('button', { name: /STOP sending me reminders/ }).click();
    const thread = page.getByRole('region', { name: /779/ });
    await thread.getByText(/Opted out since/).waitFor();
    t.equal(
      await thread.getByRole('button', { name: 'Opt out this number…' }).count(),
      0,
      'not offered to opt it out again',
    );
    await shot(page, 'optout-beyond-100-desktop', false);

    // Polls that find the list unchanged read its first page only.
    const before = listReads.length;
    for (let reads = 0; reads < 2; reads++)
      await page.waitForResponse((r) => r.url().endsWith('/api/opt-outs?limit=100'));
    t.equal(listReads.length - before, 2, `unchanged: the first page a poll (${listReads.slice(before).join(' ')})`);

    await thread.getByRole('button', { name: 'Opt back in' }).click();
    await thread.getByRole('button', { name: 'Opt out this number…' }).waitFor();
    t.same(
      (await gw.get('/api/opt-outs?limit=100&offset=100', SETUP_CALLER)).json().data.length,
      50,
      'taken off: 150 left',
    );
    t.same(await axeViolations(page), [], 'axe');
    t.same(problems, []);
  },
);
