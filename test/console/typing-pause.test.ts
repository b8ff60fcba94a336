/// <reference lib="dom" />
// The console's searches are asked of the gateway once the typing pauses, not a letter at a
// time (a real chromium): History and Conversations, typed a key at a time on the page's own
// clock (typeOnPageClock), so the machine's load cannot stretch the gaps between keys past the
// pause. Each view in a page of its own: the page clock stays in the page it was installed in.
import t from 'tap';
import type { Page } from 'playwright-core';
import { consoleApp, hasChromium, openBrowser, openView, queueAhead, signIn, typeOnPageClock } from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';

/** The searches the page asks of the gateway, as path?q=. */
function searchesAsked(page: Page): string[] {
  const asked: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.searchParams.has('q')) asked.push(`${url.pathname}?q=${url.searchParams.get('q')}`);
  });
  return asked;
}

for (const view of [
  { name: 'History', found: '1 matching.', asked: ['/api/messages?q=garage'] },
  { name: 'Conversations', found: '1 conversation matches.', asked: ['/api/inbox?q=garage', '/api/messages?q=garage'] },
]) {
  t.test(`${view.name}: a search typed a key at a time is asked once, when the typing pauses`, { skip }, async (t) => {
    const gw = await consoleApp(t);
    await queueAhead(gw, ['+4915112345678'], 'Your garage code is 4711');
    await queueAhead(gw, ['+4915112345679'], 'Routine reminder');
    const { page, problems } = await openBrowser(t);
    page.setDefaultTimeout(8000);
    const asked = searchesAsked(page);
    await page.clock.install();
    await page.goto(`${gw.base}/`);
    await signIn(page, gw.key);
    await openView(page, view.name);
    await page.getByText('Routine reminder').first().waitFor();
    await page.getByLabel('Search number or text').focus();
    await typeOnPageClock(page, 'garage');
    await page.getByText(view.found).waitFor();
    t.same([...asked].sort(), view.asked, 'asked once the typing paused, not a letter at a time');
    t.same(problems, []);
  });
}
