/// <reference lib="dom" />
// History as a list people scan: at 1280x800 at least 15 messages show without scrolling, each
// line with its time, number, status, text and tags; a line opens its details inline (tags and
// origin as chips), the keyboard moves between lines (j/k, arrows) with a visible focus and Enter
// opens one; a tag's chip filters the History by it (kept in the address); the CSV has the tags;
// the Queue uses the same list with its Cancel.
import { readFileSync } from 'node:fs';
import t, { type Test } from 'tap';
import { axeViolations, consoleApp, hasChromium, numbers, openBrowser, openView } from './browser.js';
import { SETUP_CALLER, shot, signIn } from './browser.js';

const skip = hasChromium ? false : 'needs /usr/bin/chromium';
const DESKTOP_800 = { width: 1280, height: 800 };

type Gateway = Awaited<ReturnType<typeof consoleApp>>;

/** POST /api/messages: one text to several numbers, a day ahead, with tags. */
async function queueTagged(gw: Gateway, to: string[], message: string, tags: Record<string, string>) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: SETUP_CALLER,
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ to, message, tags, sendAt: new Date(Date.now() + 86_400_000).toISOString() }),
  });
  if (res.statusCode !== 202) throw new Error(`queue: ${res.statusCode} ${res.body}`);
}

async function tagged(t: Test) {
  const gw = await consoleApp(t);
  await queueTagged(gw, numbers(0, 12), 'Garage door left open for 10 minutes', { alarm: 'home', zone: 'garage' });
  await queueTagged(gw, numbers(100, 12), 'Office alarm armed at 19:02 by the last one out', { alarm: 'office' });
  return gw;
}

t.test('1280x800: 15 lines or more in view, each with its tags; details inline; j/k and Enter', { skip }, async (t) => {
  const gw = await tagged(t);
  const { page, problems } = await openBrowser(t, DESKTOP_800);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await openView(page, 'History');
  const lines = page.locator('main .msg-line');
  await page.getByText('1–20 of 24').waitFor();
  const inView = await lines.evaluateAll(
    (els) =>
      els.filter((e) => {
        const r = e.getBoundingClientRect();
        const tags = e.querySelector('.msg-tags')?.textContent ?? '';
        return r.top >= 0 && r.bottom <= innerHeight && tags.includes('alarm=');
      }).length,
  );
  t.ok(inView >= 15, `${inView} messages with their tags in view without scrolling`);
  const heights = await lines.evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
  t.ok(Math.max(...heights) <= 40, `one line each (${Math.max(...heights)} px at most)`);
  const first = await lines.first().textContent();
  t.match(first, /\+1555000\d{3}.*queued.*Office alarm armed.*alarm=office/, 'time, number, status, text, tags');
  await shot(page, 'history-dense-desktop', false);

  // The keyboard: Tab reaches the first line, j and ArrowDown go down, k goes up, Enter opens.
  await lines.first().focus();
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('k');
  const onSecond = await page.evaluate(() => {
    const second = document.querySelectorAll('main .msg')[1];
    return document.activeElement?.closest('li') === second;
  });
  t.ok(onSecond, 'on the second line');
  const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
  t.equal(outline, 'solid', 'the focus is visible');
  const tabbable = await lines.evaluateAll((els) => els.filter((e) => e.tabIndex === 0).length);
  t.equal(tabbable, 1, 'one line in the Tab order');
  await page.keyboard.press('Enter');
  const details = page.getByRole('region', { name: 'Message details' });
  await details.waitFor();
  t.equal(await lines.nth(1).getAttribute('aria-expanded'), 'true');
  const inline = page.locator('main .msg').nth(1).getByRole('region', { name: 'Message details' });
  t.ok(await inline.isVisible(), 'opened inline, below its line');
  t.match(await details.getByRole('list', { name: 'Its tags' }).textContent(), /alarm=office/);
  t.same(await axeViolations(page), [], 'details open: axe');
  await details.getByRole('button', { name: 'Close details' }).click();
  await details.waitFor({ state: 'detached' });
  const back = await page.evaluate(() => document.activeElement?.classList.contains('msg-line'));
  t.equal(back, true, 'the focus goes back to the line');

  // A tag's chip filters the History, and the address keeps it.
  await lines.filter({ hasText: 'Garage door' }).first().click();
  await page.getByRole('region', { name: 'Message details' }).getByRole('link', { name: 'zone=garage' }).click();
  await page.getByText('12 matching.').waitFor();
  t.match(page.url(), /#\/history\?tag=zone%3Agarage$/, 'the address holds the tag');
  t.equal(await lines.count(), 12, 'only the tagged messages');
  t.ok(await page.getByText('Tagged zone=garage').isVisible(), 'the filter is shown');
  t.same(await axeViolations(page), [], 'filtered by a tag: axe');
  const exportCsv = page.getByRole('button', { name: 'Export CSV' });
  const [download] = await Promise.all([page.waitForEvent('download'), exportCsv.click()]);
  const rows = readFileSync((await download.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  t.equal(rows.length, 13, 'the CSV holds the filter: a header and 12 rows');
  t.match(rows[0], /,"tags","origin"$/, 'tags and origin columns');
  // The origin column holds the record's origin (queued through POST /api/messages: "queue").
  const row = /^"msg_[^"]+","queued","","=""\+1555000\d{3}""","Garage door.*","alarm=home; zone=garage","queue"$/;
  t.match(rows[1], row, 'the number readable, the tags, the origin');
  await page.getByRole('button', { name: 'Show every tag, not only zone=garage' }).click();
  await page.getByText('1–20 of 24').waitFor();
  t.match(page.url(), /#\/history$/);
  t.same(problems, []);
});

t.test('the Queue: the same list, Cancel on each line', { skip }, async (t) => {
  const gw = await tagged(t);
  const { page, problems } = await openBrowser(t, DESKTOP_800);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await openView(page, 'Queue');
  await page.getByRole('button', { name: 'Cancel the message to +1555000000' }).waitFor();
  const line = page.locator('main .msg-line').first();
  t.match(await line.textContent(), /alarm=/, 'the tags on the line');
  await line.click();
  await page.getByRole('region', { name: 'Message details' }).waitFor();
  t.same(await axeViolations(page), [], 'axe');
  t.same(problems, []);
});

t.test("a message's origin, when the gateway gives one: a chip in its details, a CSV column", { skip }, async (t) => {
  const gw = await tagged(t);
  const { page, problems } = await openBrowser(t, DESKTOP_800);
  page.setDefaultTimeout(8000);
  // The record as a gateway that records where each message came from answers it.
  await page.route('**/api/messages?*', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { data: Record<string, unknown>[] };
    for (const m of body.data) m.origin = 'alert';
    await route.fulfill({ response: res, json: body });
  });
  await page.goto(`${gw.base}/#/history`);
  await signIn(page, gw.key, false, 'History');
  await page.locator('main .msg-line').first().click();
  const details = page.getByRole('region', { name: 'Message details' });
  t.match(await details.textContent(), /OriginAlert receiver/, 'named for people');
  t.equal(await details.locator('.chip-origin').getAttribute('title'), 'origin: alert', 'the value in its tooltip');
  const exportCsv = page.getByRole('button', { name: 'Export CSV' });
  const [download] = await Promise.all([page.waitForEvent('download'), exportCsv.click()]);
  const rows = readFileSync((await download.path())!, 'utf8')
    .trim()
    .split('\r\n');
  t.match(rows[1], /,"alert"$/, 'the origin column');
  t.same(problems, []);
});
