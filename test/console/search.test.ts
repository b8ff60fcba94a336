/// <reference lib="dom" />
// The console searches on the gateway (a real chromium): the history's search and date range
// find a message far beyond the pages loaded (asked once the typing pauses: typing-pause.test.ts), live in the
// address (a reload keeps them); "Export CSV" saves every page of the filter; a conversation
// loads its older messages with "Load older", by keyboard. Screenshots go to SHOTS_DIR when set.
import t, { type Test } from 'tap';
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  DESKTOP,
  hasChromium,
  numbers,
  openBrowser,
  openSignedIn,
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

/** A history of 201 messages: the needle first (made 40 days old), then 200 routine ones. */
async function haystack(t: Test) {
  const gw = await consoleApp(t);
  await queueAhead(gw, ['+4915112345678'], 'Needle: the garage code is 4711');
  gw.db.prepare(`UPDATE messages SET created_at = created_at - ${40 * DAY} WHERE body LIKE 'Needle%'`).run();
  await queueAhead(gw, numbers(0, 100), 'Routine reminder');
  await queueAhead(gw, numbers(100, 100), 'Routine reminder');
  return gw;
}

const localDay = (page: Page, msAgo: number) =>
  page.evaluate((ago) => new Date(Date.now() - ago).toLocaleDateString('en-CA'), msAgo);

t.test('history: the search and the date range run on the gateway, over the whole history', { skip }, async (t) => {
  const gw = await haystack(t);
  const { page, problems } = await openSignedIn(t, gw, 'History');
  await page.getByText('1–20 of 201').waitFor();
  const items = page.locator('main ul.list > li');
  const search = page.getByLabel('Search number or text');
  await search.pressSequentially('needle', { delay: 40 });
  await page.getByText('Needle: the garage code is 4711').waitFor();
  t.equal(await items.count(), 1, 'found beyond the 200 newer messages');
  t.ok(await page.getByText('1 matching.').isVisible(), 'the count says how many match');
  t.match(page.url(), /#\/history\?q=needle$/, 'the address keeps the search');

  await search.fill('+49151');
  await page.getByText('Routine reminder').first().waitFor({ state: 'detached' });
  t.equal(await items.count(), 1, 'by number, from its start with +');
  await search.fill('');
  await page.getByText('1–20 of 201').waitFor();

  const old = await localDay(page, 40 * DAY);
  await page.getByLabel('From').fill(old);
  await page.getByLabel('To', { exact: true }).fill(old);
  await page.getByText('1–1 of 1').waitFor();
  t.equal(await items.count(), 1, 'the date range, 40 days ago');
  t.match(await items.first().textContent(), /Needle/);
  await page.getByLabel('From').fill(await localDay(page, 0));
  await page.getByText('The “From” day is after the “To” day: no message can match.').waitFor();
  t.equal(await items.count(), 0, 'nothing is listed for an impossible range');
  await page.getByLabel('From').fill('');
  await page.getByLabel('To', { exact: true }).fill('');
  await search.fill('routine');
  await page.getByText('1–20 of 200').waitFor();

  // A reload keeps the search (the address holds it).
  await page.reload();
  await page.getByText('1–20 of 200').waitFor();
  t.equal(await page.getByLabel('Search number or text').inputValue(), 'routine', 'the search is back after a reload');
  t.same(await axeViolations(page), [], 'history with a search: axe');
  await shot(page, 'history-search-desktop');

  // Export CSV: every page of the filter, not only the 20 shown.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const rows = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  t.equal(rows.length, 201, 'a header and the 200 messages of the filter');
  t.ok(
    rows.slice(1).every((r) => r.includes('"Routine reminder"')),
    'only the filter',
  );
  await page.getByText('Exported 200 messages.').waitFor();
  t.same(problems, []);
});

t.test('history search at 360x740: usable, no sideways scrolling, axe-clean', { skip }, async (t) => {
  const gw = await haystack(t);
  const { page, problems } = await openBrowser(t, PHONE);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/#/history?q=garage`);
  await signIn(page, gw.key, false, 'History');
  const typed = await page.getByLabel('Search number or text').inputValue();
  t.equal(typed, 'garage', 'the search in the address survives the sign-in');
  await page.getByText('Needle: the garage code is 4711').waitFor();
  t.equal(await overflowX(page), 0, 'no sideways scrolling');
  t.same(await axeViolations(page), [], 'axe');
  await shot(page, 'history-search-phone');
  t.same(problems, []);
});

/** A conversation longer than the view reads: 120 received from one number, and a sent question older than 100 other sends. */
async function longConversation(t: Test) {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  await queueAhead(gw, ['+1 555 777 0001'], 'First question: are you there?');
  gw.db.prepare(`UPDATE messages SET created_at = created_at - ${2 * DAY} WHERE body LIKE 'First question%'`).run();
  await queueAhead(gw, numbers(200, 100), 'Routine reminder');
  const start = Date.now() - DAY;
  for (let i = 1; i <= 120; i++)
    appendSimulatedSms(gw.home, { from: '+15557770001', body: `answer ${i}` }, start + i * 60_000);
  for (let polls = 0; polls < 20; polls++) {
    await gw.gateway.inbox.watcher.pollOnce();
    const total = (await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().pagination.total as number;
    if (total >= 120) break;
  }
  return gw;
}

for (const [size, viewport] of [
  ['desktop', DESKTOP],
  ['phone', PHONE],
] as const) {
  t.test(`a thread loads its older messages with "Load older", by keyboard (${size})`, { skip }, async (t) => {
    const gw = await longConversation(t);
    t.equal((await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().pagination.total, 120, 'the inbox holds all 120');
    const { page, problems } = await openBrowser(t, viewport);
    page.setDefaultTimeout(8000);
    await page.goto(`${gw.base}/`);
    await signIn(page, gw.key);
    await openView(page, 'Conversations');
    await page.getByRole('button', { name: /answer 120/ }).click();
    const thread = page.getByRole('region', { name: /777/ });
    const bodies = thread.getByRole('list', { name: 'Messages' }).locator('> li > bdi.body');
    await bodies.first().waitFor();
    t.equal(await bodies.count(), 100, 'the newest 100 received; the old question is not among the newest 100 sent');
    t.equal(await bodies.first().textContent(), 'answer 21');

    const older = thread.getByRole('button', { name: 'Load older', exact: true });
    await older.focus();
    await page.keyboard.press('Enter');
    await thread.getByRole('button', { name: 'No older messages' }).waitFor();
    t.equal(await bodies.count(), 121, 'the 20 older answers and the question');
    t.same(
      await bodies.evaluateAll((els) => els.slice(0, 3).map((e) => e.textContent)),
      ['First question: are you there?', 'answer 1', 'answer 2'],
      'in time order',
    );
    t.equal(
      await page.evaluate(() => document.activeElement?.textContent),
      'No older messages',
      'the focus stays on the button',
    );
    await page.keyboard.press('Enter');
    t.equal(await bodies.count(), 121, 'pressing it again reads nothing more');
    const look = await thread.getByRole('button', { name: 'No older messages' }).evaluate((e) => {
      const s = getComputedStyle(e);
      return { border: s.borderTopColor, background: s.backgroundColor, cursor: s.cursor };
    });
    const plain = { border: 'rgba(0, 0, 0, 0)', background: 'rgba(0, 0, 0, 0)', cursor: 'default' };
    t.same(look, plain, 'it does not look pressable');
    if (size === 'phone') t.equal(await overflowX(page), 0, 'no sideways scrolling');
    t.same(await axeViolations(page), [], 'axe');
    await thread.getByRole('button', { name: 'No older messages' }).scrollIntoViewIfNeeded();
    await shot(page, `thread-older-${size}`, false);
    t.same(problems, []);
  });
}

t.test(
  'a thread says where messages may be missing: a question beyond the 100 sends read, between two received SMS',
  { skip },
  async (t) => {
    const gw = await consoleApp(t, { inbox: true });
    gw.gateway.inbox.start();
    await gw.gateway.inbox.watcher.pollOnce();
    appendSimulatedSms(gw.home, { from: '+15557770002', body: 'Is the shop open today?' }, Date.now() - 3 * DAY);
    await queueAhead(gw, ['+15557770002'], 'Yes, until 6 pm.');
    gw.db.prepare(`UPDATE messages SET created_at = created_at - ${2 * DAY} WHERE body LIKE 'Yes, until%'`).run();
    await queueAhead(gw, numbers(300, 100), 'Routine reminder');
    appendSimulatedSms(gw.home, { from: '+15557770002', body: 'Thanks, see you' }, Date.now());
    await gw.gateway.inbox.watcher.pollOnce();
    const { page, problems } = await openSignedIn(t, gw, 'Conversations', PHONE);
    await page.getByRole('button', { name: /Thanks, see you/ }).click();
    const items = page.getByRole('region', { name: /777/ }).getByRole('list', { name: 'Messages' }).locator('> li');
    await items.nth(1).waitFor();
    const texts = () =>
      items.evaluateAll((els) =>
        els.map((e) => (e.querySelector('bdi.body')?.textContent ?? e.textContent ?? '').trim()),
      );
    const shown = await texts();
    t.equal(shown.length, 3, `the two received, and a mark between them (${JSON.stringify(shown)})`);
    t.equal(shown[0], 'Is the shop open today?');
    t.match(shown[1], /may be missing/, 'the answer sent between them is not read yet: the thread says so');
    t.equal(shown[2], 'Thanks, see you');
    await shot(page, 'thread-gap-phone', false);
    await page.getByRole('button', { name: 'Load older', exact: true }).click();
    await page.getByRole('button', { name: 'No older messages' }).waitFor();
    t.same(
      await texts(),
      ['Is the shop open today?', 'Yes, until 6 pm.', 'Thanks, see you'],
      'read: in its place, and no mark',
    );
    t.same(await axeViolations(page), [], 'axe');
    t.same(problems, []);
  },
);

t.test(
  'history: "Export CSV" pressed right after typing exports the search typed, not the one before the typing paused',
  { skip },
  async (t) => {
    const gw = await haystack(t);
    const { page, problems } = await openSignedIn(t, gw, 'History');
    await page.getByText('1–20 of 201').waitFor();
    await page.getByLabel('Search number or text').fill('needle');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export CSV' }).click(),
    ]);
    const rows = readFileSync((await download.path())!, 'utf8')
      .trim()
      .split('\r\n');
    t.equal(rows.length, 2, `a header and the one match (${rows.length - 1} rows)`);
    t.match(rows[1], /Needle: the garage code is 4711/);
    t.same(problems, []);
  },
);

t.test(
  'a thread whose older messages were loaded keeps every message when new sends push its own out of the view’s read',
  { skip },
  async (t) => {
    const gw = await consoleApp(t, { inbox: true });
    gw.gateway.inbox.start();
    await gw.gateway.inbox.watcher.pollOnce();
    const age = (body: string, days: number) =>
      gw.db.prepare(`UPDATE messages SET created_at = created_at - ${days * DAY} WHERE body = ?`).run(body);
    await queueAhead(gw, ['+15557770003'], 'Q1 oldest');
    age('Q1 oldest', 3);
    await queueAhead(gw, ['+15557770003'], 'Q2 at the edge');
    age('Q2 at the edge', 2);
    await queueAhead(gw, ['+15557770003'], 'Q3 read at first');
    age('Q3 read at first', 1);
    await queueAhead(gw, numbers(400, 98), 'Routine reminder');
    const { page, problems } = await openSignedIn(t, gw, 'Conversations');
    await page.getByRole('button', { name: /Q3 read at first/ }).click();
    const bodies = page
      .getByRole('region', { name: /777/ })
      .getByRole('list', { name: 'Messages' })
      .locator('> li > bdi.body');
    await bodies.nth(1).waitFor();
    await page.getByRole('button', { name: 'Load older', exact: true }).click();
    await page.getByRole('button', { name: 'No older messages' }).waitFor();
    t.same(await bodies.allTextContents(), ['Q1 oldest', 'Q2 at the edge', 'Q3 read at first']);
    // Five more sends elsewhere: the view's next read of the newest 100 no longer holds Q2 or Q3.
    const reread = page.waitForResponse((r) => r.url().endsWith('/api/messages?limit=100'));
    await queueAhead(gw, numbers(500, 5), 'Another reminder');
    await reread;
    await page.waitForResponse((r) => r.url().endsWith('/api/messages?limit=100'));
    await page.evaluate(() => new Promise(requestAnimationFrame));
    t.same(await bodies.allTextContents(), ['Q1 oldest', 'Q2 at the edge', 'Q3 read at first'], 'none of them gone');
    t.same(problems, []);
  },
);
