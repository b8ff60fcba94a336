/// <reference lib="dom" />
// The console on a phone (360x740) as a new user tries it: every view one tap away in the
// bar at the screen's bottom (the current one marked, "Sign out" in it), nothing clipped and
// no sideways scrolling on any view, the bar in reach however far a view is scrolled; axe-clean
// in the light and the dark scheme; and a bookmarked filtered History that survives sign-in
// and a reload.
import t, { type Test } from 'tap';
import type { Page } from 'playwright-core';
import { axeViolations, consoleApp, hasChromium, openBrowser, overflowX, PHONE } from './browser.js';
import { SETUP_CALLER, signIn } from './browser.js';

const skip = hasChromium ? false : 'needs /usr/bin/chromium';
/** Each view's link and the heading it opens. */
const VIEWS = [
  ['Overview', 'Overview'],
  ['Send', 'Send'],
  ['Queue', 'Queue'],
  ['History', 'History'],
  ['Conversations', 'Conversations'],
  ['Rules', 'Keyword rules'],
  ['Webhooks', 'Webhook targets'],
  ['Key', 'API key'],
] as const;

/** Whether the element is wholly inside the window and shows all its text (nothing cut). */
const wholeInWindow = (e: Element) => {
  const r = e.getBoundingClientRect();
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.width > 0;
  return inside && e.scrollWidth <= e.clientWidth + 1;
};

/**
 * Elements of the view cut at the window's right edge: past it, and not inside a box of the view
 * that ends within the window and clips what overflows it (a text shortened with an ellipsis).
 */
const clipped = (page: Page) =>
  page.evaluate(() => {
    const inClippingBox = (e: Element) => {
      for (let a = e.parentElement; a && a.tagName !== 'MAIN'; a = a.parentElement) {
        const clips = getComputedStyle(a).overflowX !== 'visible';
        if (clips && a.getBoundingClientRect().right <= innerWidth + 1) return true;
      }
      return false;
    };
    return [...document.querySelectorAll('main *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !inClippingBox(e))
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      .slice(0, 5);
  });

async function withMessages(t: Test) {
  const gw = await consoleApp(t);
  const sendAt = new Date(Date.now() + 86_400_000).toISOString();
  for (const [to, message, tags] of [
    ['+15550001111', 'The garage door is open', { alarm: 'home' }],
    ['+15550002222', 'The garage door is closed', { alarm: 'office', list: 'household' }],
    ['+15550003333', 'Lunch at noon in the garden, bring a very long umbrella just in case it rains', {}],
  ] as const) {
    const res = await gw.app.inject({
      method: 'POST',
      url: '/api/messages',
      remoteAddress: SETUP_CALLER,
      headers: { ...gw.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ to, message, tags, sendAt }),
    });
    t.equal(res.statusCode, 202, message);
  }
  return gw;
}

for (const scheme of ['light', 'dark'] as const) {
  const name = `360x740, ${scheme}: every view in one tap, nothing clipped, no sideways scroll, axe-clean`;
  t.test(name, { skip }, async (t) => {
    const gw = await withMessages(t);
    const { page, problems } = await openBrowser(t, PHONE);
    page.setDefaultTimeout(8000);
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(`${gw.base}/`);
    t.same(await axeViolations(page), [], 'sign-in: axe');
    await signIn(page, gw.key);
    const nav = page.getByRole('navigation', { name: 'Views' });
    for (const [view, heading] of VIEWS) {
      const link = nav.getByRole('link', { name: view, exact: true });
      t.ok(await link.evaluate(wholeInWindow), `${view}: its link is in the window, its name whole`);
      await link.click(); // one tap
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForTimeout(300);
      t.equal(await link.getAttribute('aria-current'), 'page', `${view}: marked as the current view`);
      t.equal(await overflowX(page), 0, `${view}: no sideways scrolling`);
      t.same(await clipped(page), [], `${view}: nothing cut at the right edge`);
      const numbers = page.locator('main .msg-to');
      const cutNumbers = await numbers.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).length);
      t.equal(cutNumbers, 0, `${view}: every number whole`);
      await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
      t.ok(await link.evaluate(wholeInWindow), `${view}: the current view's link in reach at the bottom of the page`);
      t.ok(await nav.getByRole('button', { name: 'Sign out' }).evaluate(wholeInWindow), `${view}: "Sign out" in reach`);
      t.same(await axeViolations(page), [], `${view}: axe`);
    }
    const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const sum = (bg.match(/\d+/g) ?? [])
      .slice(0, 3)
      .map(Number)
      .reduce((a, b) => a + b, 0);
    t.ok(scheme === 'dark' ? sum < 150 : sum > 600, `the ${scheme} background follows the system (${bg})`);
    await nav.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('Signed out.').waitFor();
    t.same(problems, []);
  });
}

t.test('a bookmarked, filtered History survives sign-in and a reload', { skip }, async (t) => {
  const gw = await withMessages(t);
  const { page, problems } = await openBrowser(t);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/#/history?q=garage&tag=alarm:home`);
  await signIn(page, gw.key, false, 'History');
  const lines = page.locator('main .msg-line');
  await page.getByText('1 matching.').waitFor();
  t.equal(await page.getByLabel('Search number or text').inputValue(), 'garage', 'the search');
  t.ok(await page.getByText('Tagged alarm=home').isVisible(), 'the tag');
  t.match(await lines.first().textContent(), /The garage door is open/);
  t.equal(await lines.count(), 1);
  t.match(page.url(), /#\/history\?q=garage&tag=alarm%3Ahome$/, 'the address is kept');
  await page.reload();
  await page.getByText('1 matching.').waitFor();
  t.equal(await lines.count(), 1, 'the same view after a reload');
  await page.goto(`${gw.base}/#/queue`);
  await page.getByRole('heading', { name: 'Queue', level: 1 }).waitFor();
  await page.goBack();
  await page.getByText('1 matching.').waitFor();
  t.equal(await lines.count(), 1, 'and after going back');
  t.same(problems, []);
});
