/// <reference lib="dom" />
// The browser tests' fixture: Debian's chromium driven by playwright-core (headless, a new
// empty profile), the gateway app (test/helpers/test-app.ts testApp, real clock, simulated mode) on a
// random loopback port, and the watchers every console test uses: dialogs, console errors,
// page errors and CSP violation reports, plus axe-core run inside the page.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { systemClock } from '../../src/core/clock.js';
import { simulatedSmsList } from '../../src/device/simulated-inbox.js';
import { tempDir } from '../helpers/paths.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';
import type { FakeClock } from '../helpers/fake-clock.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
export const PHONE = { width: 360, height: 740 };
export const DESKTOP = { width: 1280, height: 860 };
export const hasChromium = existsSync(CHROMIUM);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The gateway app on 127.0.0.1:<random>, on the real clock (the browser waits for real). */
export async function consoleApp(t: Test, opts: TestAppOptions = {}) {
  const home = opts.home ?? tempDir(t);
  // The simulated inbox, as `sms-gateway simulate receive` fills it (testApp reads none by default).
  const inboxList = opts.inboxList ?? simulatedSmsList(home, () => 'UTC');
  const ctx = await testApp(t, { ...opts, home, inboxList, clock: systemClock as FakeClock });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { ...ctx, base: `http://127.0.0.1:${port}` };
}

/** POST /api/sms/send with the key (the test helper's send() moves a fake clock: not here). */
export async function sendNow(gw: Awaited<ReturnType<typeof consoleApp>>, body: { to: string; message: string }) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '127.0.0.1',
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 200) throw new Error(`send: ${res.statusCode} ${res.body}`);
}

/** Set-up calls come from another address than the browser's, so they never use up its rate limit. */
export const SETUP_CALLER = '192.168.1.30';

/** POST /api/messages (the queue): one text to several recipients, a day ahead (nothing is sent meanwhile). */
export async function queueAhead(gw: Awaited<ReturnType<typeof consoleApp>>, to: string[], message: string) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: SETUP_CALLER,
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({
      to: to.length === 1 ? to[0] : to,
      message,
      sendAt: new Date(Date.now() + 86_400_000).toISOString(),
    }),
  });
  if (res.statusCode !== 202) throw new Error(`queue: ${res.statusCode} ${res.body}`);
}

/** n numbers in a row, +1555<from, 6 digits>, ... */
export const numbers = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => `+1555${String(from + i).padStart(6, '0')}`);

export interface Watched {
  page: Page;
  context: BrowserContext;
  /** Dialogs opened, console errors, page errors, CSP violations: each must stay empty. */
  problems: string[];
}

/** A fresh browser with a new empty profile; closed at teardown. */
export async function openBrowser(t: Test, viewport = DESKTOP): Promise<Watched> {
  const context = await chromium.launchPersistentContext(tempDir(t, 'smsgw-chromium-'), {
    executablePath: CHROMIUM,
    args: ARGS,
    headless: true,
    viewport,
    serviceWorkers: 'block',
  });
  t.teardown(() => context.close());
  const problems: string[] = [];
  // Not subject to the page's CSP (the debugger protocol adds it): reports violations.
  await context.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e: SecurityPolicyViolationEvent) => {
      console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.type()} ${d.message()}`);
    void d.dismiss();
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    // An API answer of 4xx/5xx (e.g. 503 inbox_disabled) is logged by the browser itself: the view says it.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded with a status of'))
      problems.push(`console error: ${m.text()}`);
  });
  return { page, context, problems };
}

/** Pastes the key on the sign-in view and waits for the view the address names (the overview when it names none). */
export async function signIn(page: Page, key: string, remember = false, lands = 'Overview') {
  await page.getByLabel("API key, or the QR code's text").fill(key);
  if (remember) await page.getByLabel('Remember on this device').check();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: lands, level: 1 }).waitFor();
}

/** Goes to a view through its link in the navigation. */
export async function openView(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { level: 1 }).first().waitFor();
}

/** A fresh browser (8 s for each wait), signed in to the gateway and on one of its views. */
export async function openSignedIn(
  t: Test,
  gw: { base: string; key: string },
  view: string,
  viewport = DESKTOP,
): Promise<Watched> {
  const watched = await openBrowser(t, viewport);
  watched.page.setDefaultTimeout(8000);
  await watched.page.goto(`${gw.base}/`);
  await signIn(watched.page, gw.key);
  await openView(watched.page, view);
  return watched;
}

/** A PNG of the page (the whole page, or what the window shows) into SHOTS_DIR, when set. */
export async function shot(page: Page, name: string, fullPage = true) {
  if (process.env.SHOTS_DIR) await page.screenshot({ path: join(process.env.SHOTS_DIR, `${name}.png`), fullPage });
}

/** axe-core's serious and critical violations on the page as it is now (each as one line). */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated through the debugger protocol: the page's CSP does not apply to it.
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (
            ctx: Document,
            o: object,
          ) => Promise<{ violations: { id: string; impact: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 3),
    }));
  });
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

/** Nothing wider than the viewport: every view is usable at 360 px without sideways scrolling. */
export async function overflowX(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/**
 * Whether an element's first line is in view (where the button just pressed is), above the
 * views' bar when it is fixed at the screen's bottom (a phone); run with locator.evaluate.
 */
export const firstLineInView = (e: Element) => {
  const r = e.getBoundingClientRect();
  const bar = document.querySelector('header.top nav');
  const end = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
  return r.top >= 0 && r.top + 24 <= end;
};

/** How long the console waits for the typing to pause before it asks the gateway (src/console: useDebounced). */
const TYPING_PAUSE_MS = 300;

/**
 * Types `text` into the focused field a key at a time on the page's fake clock, 100 ms of it
 * between keys and more than the typing pause after the last, whatever the load of the machine
 * (a real 40 ms between keys can stretch past the pause on a busy CI). The page must have had
 * `page.clock.install()` before it loaded; real time flows again afterwards.
 */
export async function typeOnPageClock(page: Page, text: string): Promise<void> {
  await page.clock.pauseAt(Date.now() + 5_000);
  for (const key of text) {
    await page.keyboard.type(key);
    await page.clock.runFor(100);
  }
  await page.clock.runFor(TYPING_PAUSE_MS + 100);
  await page.clock.resume();
}

/**
 * Makes the list's read that follows an add (a POST to `path`) answer `ms` late, as on a busy
 * phone: a view must still show the add's note once the list has changed.
 */
export async function delayListReadAfterAdd(page: Page, path: string, ms = 400): Promise<void> {
  let added = false;
  await page.route(`**${path}`, async (route) => {
    if (route.request().method() === 'POST') added = true;
    else if (added) await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}
