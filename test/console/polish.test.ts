/// <reference lib="dom" />
// The console as a new user would try it (issue 35 part 5): Enter signs in with a masked key
// and a "show" toggle; the overview names checks for people and shows "Fix:" only where one
// is needed (an unknown check says why, with no "Fix:"); Cancel and Remove ask first; the
// history searches by number or text and a date range and exports what it shows as CSV.
import { readFileSync } from 'node:fs';
import t from 'tap';
import { axeViolations, consoleApp, hasChromium, openBrowser, openSignedIn, openView, signIn } from './browser.js';

/** POST /api/messages (queue) with the key: no pacing between two (sends must be a second apart). */
async function queue(
  gw: Awaited<ReturnType<typeof consoleApp>>,
  body: { to: string; message: string; sendAt: string },
) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '127.0.0.1',
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 202) throw new Error(`queue: ${res.statusCode} ${res.body}`);
}

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';

t.test(
  'sign-in: a masked one-line key field, a show toggle, Enter signs in, code not backticks',
  { skip },
  async (t) => {
    const gw = await consoleApp(t);
    const { page, problems } = await openBrowser(t);
    page.setDefaultTimeout(8000);
    await page.goto(`${gw.base}/`);
    const field = page.getByLabel("API key, or the QR code's text");
    t.equal(await field.evaluate((e) => e.tagName), 'INPUT', 'a single-line input');
    t.equal(await field.getAttribute('type'), 'password', 'masked');
    const hint = page.locator('.login .hint');
    t.notMatch(await hint.textContent(), /`/, 'no literal backtick');
    t.equal(await hint.locator('code').count(), 2, 'the commands as code');
    await field.fill(gw.key);
    const show = page.getByRole('button', { name: 'Show the key' });
    t.equal(await show.getAttribute('aria-pressed'), 'false');
    await show.click();
    t.equal(await field.getAttribute('type'), 'text', 'shown in clear on request');
    t.equal(await show.getAttribute('aria-pressed'), 'true');
    await show.click();
    t.equal(await field.getAttribute('type'), 'password', 'masked again');
    await field.press('Enter');
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    t.pass('Enter in the key field signs in');
    t.same(problems, []);
  },
);

t.test('overview: human check names, "Fix:" only on a check that is not ok', { skip }, async (t) => {
  const gw = await consoleApp(t);
  const { page, problems } = await openBrowser(t);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await page.getByRole('heading', { name: 'Checks' }).waitFor();
  const checks = page.locator('ul.checks > li');
  const names = await checks.locator('strong').allTextContents();
  const diag = (await gw.get('/api/diagnostics')).json().data;
  t.equal(names.length, Object.keys(diag.checks).length, 'every check listed');
  for (const n of ['Termux:API', 'Send budget', 'Android SMS limit']) t.ok(names.includes(n), `"${n}" shown`);
  for (const n of names) t.notMatch(n, /^[a-z]+[A-Z]/, `"${n}" is not an internal camelCase name`);
  const rows = await checks.evaluateAll((lis) =>
    lis.map((li) => {
      const hint = li.querySelector('.hint')?.textContent;
      return { status: li.querySelector('.badge')?.textContent, fix: hint !== undefined, hint };
    }),
  );
  const okWithHint = Object.values(diag.checks as Record<string, { status: string; hint?: string }>).filter(
    (c) => c.status === 'ok' && c.hint,
  ).length;
  t.ok(okWithHint > 0, 'the gateway gives a hint on some ok check (the case this guards)');
  t.same(
    rows.filter((r) => r.status === 'ok' && r.fix),
    [],
    'no "Fix:" line on an ok check',
  );
  t.ok(
    rows.some((r) => r.status !== 'ok' && r.fix),
    'a check that is not ok keeps its fix',
  );
  const unknown = rows.filter((r) => r.status === 'unknown' && r.fix);
  t.ok(unknown.length > 0, 'some check is unknown in simulated mode (the battery: the case this guards)');
  t.same(
    unknown.filter((r) => r.hint?.startsWith('Fix:')),
    [],
    'an unknown check says why, never "Fix:" (nothing to fix)',
  );
  t.same(problems, []);
});

t.test('Cancel and Remove ask first, by keyboard too', { skip }, async (t) => {
  const gw = await consoleApp(t);
  await queue(gw, { to: '+15551239999', message: 'Tomorrow', sendAt: new Date(Date.now() + 86_400_000).toISOString() });
  const { page, problems } = await openSignedIn(t, gw, 'Queue');
  const cancel = page.getByRole('button', { name: 'Cancel the message to +15551239999' });
  await cancel.click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  t.match(await dialog.textContent(), /\+15551239999/, 'the dialog names the message');
  t.same(await axeViolations(page), [], 'the dialog: axe');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  t.equal((await gw.get('/api/messages?status=queued')).json().pagination.total, 1, 'Escape keeps the message');
  await cancel.click();
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await dialog.waitFor({ state: 'detached' });
  t.equal((await gw.get('/api/messages?status=queued')).json().pagination.total, 1, '"Keep it" keeps it');
  await cancel.focus();
  await page.keyboard.press('Enter');
  await dialog.waitFor();
  await page.keyboard.press('Shift+Tab'); // from "Keep it" (focused first) to the action
  await page.keyboard.press('Enter');
  await page.getByText('Cancelled the message to +15551239999.').waitFor();
  t.equal((await gw.get('/api/messages?status=cancelled')).json().pagination.total, 1, 'cancelled once confirmed');

  await openView(page, 'Webhooks');
  await page.getByLabel('New target URL (http:// or https://)').fill('http://127.0.0.1:9/hook');
  await page.getByRole('button', { name: 'Add target' }).click();
  const id = (await page.getByText(/^Added wh_/).textContent())!.slice(6, -1);
  await page.getByRole('button', { name: `Remove ${id}` }).click();
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  t.equal((await gw.get('/api/webhooks')).json().data.length, 1, 'not removed before the confirmation');
  await page.getByRole('button', { name: `Remove ${id}` }).click();
  await dialog.getByRole('button', { name: 'Remove the target' }).click();
  await page.getByText(`Removed ${id}.`).waitFor();
  t.same((await gw.get('/api/webhooks')).json().data, [], 'removed once confirmed');
  t.same(problems, [], 'no window.confirm, no error');
});

t.test('history: search by number or text, a date range, CSV export of what is shown', { skip }, async (t) => {
  const gw = await consoleApp(t);
  const sendAt = new Date(Date.now() + 86_400_000).toISOString();
  await queue(gw, { to: '+15550000001', message: 'Lunch at noon', sendAt });
  await queue(gw, { to: '+15550000002', message: '=HYPERLINK("http://x","a, b")', sendAt });
  const { page, problems } = await openSignedIn(t, gw, 'History');
  await page.getByText('Lunch at noon').waitFor();
  const items = page.locator('main ul.list > li');
  const search = page.getByLabel('Search number or text');
  await search.fill('0002');
  await page.getByText('Lunch at noon').waitFor({ state: 'detached' });
  t.equal(await items.count(), 1, 'by number');
  await search.fill('LUNCH');
  await page.getByText('HYPERLINK').waitFor({ state: 'detached' });
  t.equal(await items.count(), 1, 'by text, any case');
  await search.fill('');
  await page.getByText('HYPERLINK').waitFor();
  const today = await page.evaluate(() => new Date().toLocaleDateString('en-CA'));
  const tomorrow = await page.evaluate(() => new Date(Date.now() + 86_400_000).toLocaleDateString('en-CA'));
  await page.getByLabel('From').fill(tomorrow);
  await page.getByText('No message here.').waitFor();
  await page.getByLabel('From').fill(today);
  await page.getByLabel('To', { exact: true }).fill(today);
  await page.getByText('Lunch at noon').waitFor();
  t.equal(await items.count(), 2, 'both sent today');
  t.same(await axeViolations(page), [], 'history with its filters: axe');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  t.match(download.suggestedFilename(), /\.csv$/);
  const csv = readFileSync((await download.path())!, 'utf8').replace(/^\uFEFF/, '');
  const rows = csv.trim().split('\r\n');
  t.equal(rows.length, 3, 'a header and the two rows shown');
  t.match(rows[0], /^"id","status","reason","to","body",/);
  t.ok(
    rows.some((r) => r.includes(`"=""+15550000001"""`)),
    'a number is a constant text a spreadsheet shows as it is',
  );
  t.ok(
    rows.some((r) => r.includes(`"'=HYPERLINK(""http://x"",""a, b"")"`)),
    'a formula is defused, quotes doubled',
  );

  await search.fill('Lunch');
  await page.getByText('HYPERLINK').waitFor({ state: 'detached' });
  const [second] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const shown = readFileSync((await second.path())!, 'utf8')
    .trim()
    .split('\r\n');
  t.equal(shown.length, 2, 'only what is shown');
  t.same(problems, []);
});
