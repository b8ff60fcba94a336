/// <reference lib="dom" />
// Conversations' search (a real chromium): a search by number or text and a date range above
// the thread list, asked of the gateway (once the typing pauses: typing-pause.test.ts); it finds
// a thread older than the 100 sends the view reads; kept in the address, keyboard-usable, 360x740 usable and
// axe-clean; and a thread's preview clamped to two whole lines. Screenshots go to SHOTS_DIR when set.
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  hasChromium,
  numbers,
  openSignedIn,
  overflowX,
  PHONE,
  queueAhead,
  SETUP_CALLER,
  shot,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';
const DAY = 86_400_000;
const LONG =
  'Hello there! The plumber comes tomorrow between 8 and 10, please leave the side gate open and keep the dog inside; call me if anything changes, thanks a lot.';

/**
 * Received: "Alarm in the garage" 3 days ago, a long text an hour ago; sent: the garage code
 * 40 days ago, then 100 routine messages (so the view's own read of 100 sends misses the code).
 */
async function garage(t: Test) {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  appendSimulatedSms(gw.home, { from: '+15550001', body: 'Alarm in the garage' }, Date.now() - 3 * DAY);
  appendSimulatedSms(gw.home, { from: '+15550009', body: LONG }, Date.now() - 3_600_000);
  await gw.gateway.inbox.watcher.pollOnce();
  await queueAhead(gw, ['+4915112345678'], 'Your garage code is 4711');
  gw.db.prepare(`UPDATE messages SET created_at = created_at - ${40 * DAY} WHERE body LIKE 'Your garage%'`).run();
  await queueAhead(gw, numbers(0, 100), 'Routine reminder');
  t.equal((await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().pagination.total, 2, 'both received');
  return gw;
}

const localDay = (page: Page, msAgo: number) =>
  page.evaluate((ago) => new Date(Date.now() - ago).toLocaleDateString('en-CA'), msAgo);

t.test(
  'conversations: the search and the date range run on the gateway and list the threads with a match',
  { skip },
  async (t) => {
    const gw = await garage(t);
    const { page, problems } = await openSignedIn(t, gw, 'Conversations');
    const list = page.getByRole('list', { name: 'Conversations' });
    const items = list.locator('> li');
    await items.nth(101).waitFor();
    t.equal(await items.count(), 102, 'without a search: every thread the view read');
    t.equal(await list.getByText('+4915112345678').count(), 0, 'the old code is beyond the 100 sends the view reads');

    const search = page.getByRole('search', { name: 'Search the conversations' }).getByLabel('Search number or text');
    await search.focus();
    await page.keyboard.type('garage', { delay: 40 });
    await page.getByText('2 conversations match.').waitFor();
    t.equal(await items.count(), 2, 'the threads with a matching message');
    t.match(
      await items.nth(0).textContent(),
      /\+15550001.*Alarm in the garage/,
      'the newest match first, with its text',
    );
    t.match(
      await items.nth(1).textContent(),
      /\+4915112345678.*Your garage code is 4711/,
      'found on the gateway, beyond the view’s read',
    );
    t.match(page.url(), /#\/inbox\?q=garage$/, 'the address keeps the search');
    const overhang = await page.evaluate(() => {
      const side = document.querySelector('.thread-side')!.getBoundingClientRect().right;
      return Math.max(
        ...[...document.querySelectorAll('.thread-side input')].map((i) => i.getBoundingClientRect().right - side),
      );
    });
    t.ok(overhang <= 0.5, `the search form stays in its column beside the thread (${overhang} px over)`);
    t.same(await axeViolations(page), [], 'a search: axe');

    // By keyboard: the found thread opens with Enter and shows its message.
    await items.nth(1).getByRole('button').focus();
    await page.keyboard.press('Enter');
    const thread = page.getByRole('region', { name: /4915112345678/ });
    await thread.getByText('Your garage code is 4711').waitFor();
    t.ok(await search.isVisible(), 'the search stays above the list beside the thread');

    await search.fill('+49151');
    await page.getByText('1 conversation matches.').waitFor();
    t.equal(await items.count(), 1, 'by number, from its start with +');
    await search.fill('');
    await items.nth(101).waitFor();
    t.equal(await page.getByRole('status').filter({ hasText: /match/ }).count(), 0, 'no count without a search');

    const side = page.getByRole('search', { name: 'Search the conversations' });
    const old = await localDay(page, 40 * DAY);
    await side.getByLabel('From').fill(old);
    await side.getByLabel('To', { exact: true }).fill(old);
    await page.getByText('1 conversation matches.').waitFor();
    t.match(await items.first().textContent(), /4915112345678/, 'the date range, 40 days ago');
    await side.getByLabel('From').fill(await localDay(page, 0));
    await page.getByText('The “From” day is after the “To” day: no message can match.').waitFor();
    t.equal(await items.count(), 0, 'nothing is listed for an impossible range');

    await page.goto(`${gw.base}/#/inbox?q=garage`);
    await page.reload();
    await page.getByText('2 conversations match.').waitFor();
    t.equal(await search.inputValue(), 'garage', 'the search is back after a reload');
    t.same(problems, []);
  },
);

t.test(
  'conversations search at 360x740: above the list, no sideways scrolling, axe-clean; the preview is two whole lines',
  { skip },
  async (t) => {
    const gw = await garage(t);
    const { page, problems } = await openSignedIn(t, gw, 'Conversations', PHONE);
    const list = page.getByRole('list', { name: 'Conversations' });
    const preview = list.getByRole('button', { name: /plumber/ }).locator('bdi.body');
    await preview.waitFor();
    const box = await preview.evaluate((el) => ({
      height: el.getBoundingClientRect().height,
      line: parseFloat(getComputedStyle(el).lineHeight),
      full: el.scrollHeight,
    }));
    t.ok(
      Math.abs(box.height - 2 * box.line) < 1,
      `exactly two lines tall (${box.height} px, lines of ${box.line} px), no cut line`,
    );
    t.ok(box.full > box.height + box.line, 'the rest of the long text is clamped');
    await preview.scrollIntoViewIfNeeded();
    await shot(page, 'thread-list-clamp-phone', false);

    const search = page.getByLabel('Search number or text');
    const place = await search.boundingBox();
    t.ok(
      place && place.y + place.height < 740 && place.x >= 0 && place.x + place.width <= 360,
      'the search is on the first screen',
    );
    await search.fill('garage');
    await page.getByText('2 conversations match.').waitFor();
    t.equal(await overflowX(page), 0, 'no sideways scrolling');
    t.same(await axeViolations(page), [], 'axe');
    await shot(page, 'thread-search-phone', false);
    await list.getByRole('button', { name: /Alarm in the garage/ }).click();
    await page.getByRole('button', { name: '← All conversations' }).click();
    await page.getByText('2 conversations match.').waitFor();
    t.equal(await list.locator('> li').count(), 2, 'back from the thread, the search still holds');
    t.same(problems, []);
  },
);

t.test(
  'desktop: a thread opened far down a long thread list is in view beside it, not at the top of the page',
  { skip },
  async (t) => {
    const gw = await garage(t);
    const { page, problems } = await openSignedIn(t, gw, 'Conversations');
    const items = page.getByRole('list', { name: 'Conversations' }).locator('> li');
    await items.nth(101).waitFor();
    await items.nth(90).getByRole('button').click();
    const thread = page.locator('section.thread');
    await thread.waitFor();
    const inView = (e: Element) => {
      const r = e.getBoundingClientRect();
      const bar = document.querySelector('header.top nav');
      const end = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
      return r.top >= 0 && r.bottom <= end;
    };
    t.ok(await thread.locator('h2').evaluate(inView), 'its number is in view');
    t.ok(await thread.getByLabel('Reply').evaluate(inView), 'and so is its reply box');
    const last = (await items.nth(101).locator('.thread-who').textContent())!.trim();
    await items.nth(101).getByRole('button').click();
    await page.getByRole('heading', { level: 2, name: last }).waitFor();
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    t.ok(
      await thread.locator('h2').evaluate(inView),
      'the last one, the page scrolled to its end: its number is not pushed up out of view',
    );
    t.same(await axeViolations(page), [], 'axe');
    t.same(problems, []);
  },
);
