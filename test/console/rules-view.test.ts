/// <reference lib="dom" />
// The Rules view and the unread count (issue 35 part 5, a real chromium): a rule added is
// listed, the gateway's refusal is shown as it comes, a rule is removed only once confirmed;
// the Conversations link counts received SMS that arrived since Conversations was last open
// and clears when it is opened; the Rules view is axe-clean in light and dark mode.
import t from 'tap';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  delayListReadAfterAdd,
  firstLineInView,
  hasChromium,
  openBrowser,
  openSignedIn,
  openView,
  PHONE,
  signIn,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';

t.test('Rules: add one, listed, a refusal shown, removed after confirming', { skip }, async (t) => {
  const gw = await consoleApp(t);
  const { page, problems } = await openSignedIn(t, gw, 'Rules');
  await page.getByText('No rule.').waitFor();

  await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').fill('STATUS');
  await page.getByLabel('Match').selectOption('prefix');
  await page.getByLabel('Reply (empty: no reply, an event only)').fill('All fine \u202eat home.');
  await page
    .getByLabel('Only from these numbers (comma-separated; empty: anyone)')
    .fill('+15550001111, +1 555 000 2222');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByText('Added the rule STATUS.').waitFor();
  const rules = (await gw.get('/api/rules')).json().data as {
    id: string;
    keyword: string;
    match: string;
    reply: string;
    from: string[] | null;
  }[];
  t.same(
    rules.map((r) => [r.keyword, r.match, r.reply, r.from]),
    [['STATUS', 'prefix', 'All fine \u202eat home.', ['+15550001111', '+15550002222']]],
    'the gateway has the rule as typed',
  );
  const item = page.getByRole('list', { name: 'Rules' }).locator('> li');
  await item.first().waitFor();
  t.equal(await item.count(), 1, 'listed');
  // Shown with the override as a marker, the way Conversations shows a text: raw, it would turn
  // "at home." around on screen, and the list would not show what the rule sends.
  t.equal(
    await item.locator('bdi.body').textContent(),
    'All fine ⟨U+202E⟩at home.',
    'the reply as text, in its own <bdi>, its override a marker',
  );
  t.match(
    await item.textContent(),
    /STATUS.*prefix match.*from \+15550001111, \+15550002222/,
    'keyword, match and numbers shown',
  );
  t.equal(
    await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').inputValue(),
    '',
    'the form is cleared',
  );

  await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').fill('no way');
  await page.getByRole('button', { name: 'Add rule' }).click();
  const refusal = await page.getByRole('alert').textContent();
  t.match(refusal, /keyword/, `the 400 message as the gateway gives it (${refusal})`);
  t.same(await axeViolations(page), [], 'Rules with a rule and an error: axe');

  await page.getByRole('button', { name: 'Remove the rule STATUS' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  t.match(await dialog.textContent(), /STATUS/, 'the dialog names the rule');
  await dialog.getByRole('button', { name: 'Keep it' }).click();
  await dialog.waitFor({ state: 'detached' });
  t.equal((await gw.get('/api/rules')).json().data.length, 1, 'not removed before the confirmation');
  await page.getByRole('button', { name: 'Remove the rule STATUS' }).click();
  await dialog.getByRole('button', { name: 'Remove the rule' }).click();
  await page.getByText('Removed the rule STATUS.').waitFor();
  t.same((await gw.get('/api/rules')).json().data, [], 'removed once confirmed');
  await page.getByText('No rule.').waitFor();
  t.same(problems, [], 'no window.confirm, no error');
});

t.test('the Conversations link counts new received SMS and clears when opened', { skip }, async (t) => {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  appendSimulatedSms(gw.home, { from: '+15559870001', body: 'Before the console was opened' }, Date.now() - 60_000);
  await gw.gateway.inbox.watcher.pollOnce();
  const { page, problems } = await openBrowser(t);
  page.setDefaultTimeout(8000);
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  const link = page.getByRole('navigation', { name: 'Views' }).getByRole('link', { name: 'Conversations' });
  // The first look sets the mark: what was there before does not count.
  await page.waitForFunction(() => localStorage.getItem('sms-gateway-inbox-seen') !== null);
  t.equal(await link.textContent(), 'Conversations', 'nothing counted before a new SMS');

  appendSimulatedSms(gw.home, { from: '+15559870002', body: 'New one' }, Date.now());
  appendSimulatedSms(gw.home, { from: '+15559870003', body: 'Another' }, Date.now() + 1000);
  await gw.gateway.inbox.watcher.pollOnce();
  await page.getByText('Conversations (2)').waitFor();
  t.equal(await link.getAttribute('aria-describedby'), 'unread-count');
  t.equal(
    await page.locator('#unread-count').textContent(),
    '2 new received SMS',
    'the count described for a screen reader',
  );
  t.same(await axeViolations(page), [], 'the navigation with a count: axe');

  await openView(page, 'Conversations');
  await page.getByRole('button', { name: /Another/ }).waitFor();
  t.equal(await link.textContent(), 'Conversations', 'cleared on opening');
  t.equal(await link.getAttribute('aria-describedby'), null);
  const inboxRead = () => page.waitForResponse((r) => r.url().endsWith('/api/inbox?limit=100'));
  let read = inboxRead();
  await openView(page, 'Overview');
  await read;
  await page.evaluate(() => new Promise(requestAnimationFrame));
  t.equal(await link.textContent(), 'Conversations', 'still cleared after leaving: the mark moved');
  read = inboxRead();
  await page.reload();
  await read;
  await page.evaluate(() => new Promise(requestAnimationFrame));
  t.equal(await link.textContent(), 'Conversations', 'the mark is kept in localStorage');
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('Signed out.').waitFor();
  t.equal(
    await page.evaluate(() => localStorage.getItem('sms-gateway-inbox-seen')),
    null,
    'signing out forgets the mark with the key',
  );
  t.same(problems, []);
});

t.test('the Rules view in dark mode on a phone: axe', { skip }, async (t) => {
  const gw = await consoleApp(t);
  const { page, problems } = await openBrowser(t, PHONE);
  page.setDefaultTimeout(8000);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${gw.base}/`);
  await signIn(page, gw.key);
  await openView(page, 'Rules');
  await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').fill('HELLO');
  await page.getByRole('button', { name: 'Add rule' }).click();
  await page.getByText('Added the rule HELLO.').waitFor();
  t.same(await axeViolations(page), [], 'Rules in dark mode: axe');
  for (let i = 1; i < 50; i++) gw.gateway.sending.rules.add({ keyword: `K${i}`, match: 'exact', reply: '' });
  await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').fill('ONEMORE');
  await page.getByRole('button', { name: 'Add rule' }).click();
  t.match(await page.getByRole('alert').textContent(), /50/, 'the 409 message as the gateway gives it');
  t.equal(
    await page.getByLabel('Keyword (1 to 20 letters or digits, any case)').inputValue(),
    'ONEMORE',
    'the form keeps what was typed',
  );
  t.same(problems, []);
});

t.test(
  'Rules on a phone: a refused rule says why where the form is, not out of sight above the list',
  { skip },
  async (t) => {
    const gw = await consoleApp(t);
    for (let i = 1; i <= 6; i++)
      gw.gateway.sending.rules.add({ keyword: `K${i}`, match: 'exact', reply: `Reply number ${i}` });
    const { page, problems } = await openSignedIn(t, gw, 'Rules', PHONE);
    await page.getByRole('list', { name: 'Rules' }).locator('> li').nth(5).waitFor();
    const keyword = page.getByLabel('Keyword (1 to 20 letters or digits, any case)');
    await keyword.fill('Größe');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.match(await alert.textContent(), /keyword/);
    t.ok(await alert.evaluate(firstLineInView), 'the refusal is in view beside the form');
    // The list read again after the add answers late (a busy phone): the note must still end in view.
    await delayListReadAfterAdd(page, '/api/rules');
    await keyword.fill('HELLO');
    await page.getByRole('button', { name: 'Add rule' }).click();
    const added = page.getByText('Added the rule HELLO.');
    await added.waitFor();
    await page.getByRole('list', { name: 'Rules' }).locator('> li').nth(6).waitFor();
    t.ok(
      await added.evaluate(firstLineInView),
      'so is the note that it was added, once the list has grown by the rule',
    );
    t.same(problems, []);
  },
);
