/// <reference lib="dom" />
// An open conversation (a real chromium) opens at its newest message with the reply box in
// view, on a desktop (the thread pane scrolls by itself) and on a phone (the page scrolls; the
// focus goes to the back button without scrolling away); "Load older" keeps the message read
// in its place; a new message follows the reader at the end and leaves one reading older ones
// where they are; a reply whose question is not loaded says so in words, not as a raw id.
// Screenshots go to SHOTS_DIR when set.
import t, { type Test } from 'tap';
import type { Locator, Page } from 'playwright-core';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import {
  axeViolations,
  consoleApp,
  hasChromium,
  openBrowser,
  openSignedIn,
  openView,
  PHONE,
  SETUP_CALLER,
  shot,
  signIn,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';
const NUMBER = '+15550101';

/**
 * One number's long thread: 29 reminders 20 minutes ago, the question "Your order 1042 ..." (tags
 * order=1042) 2 minutes ago, its answer a minute ago, then 101 reminders: the view's newest 100
 * sends miss the question and the older reminders ("Load older" reads them, above the answer).
 */
async function longThread(t: Test) {
  const gw = await consoleApp(t, { inbox: true });
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  const sent = await gw.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: SETUP_CALLER,
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({
      to: NUMBER,
      message: 'Your order 1042 has shipped. Any question?',
      tags: { order: '1042' },
    }),
  });
  t.equal(sent.statusCode, 200, 'the question is sent');
  gw.db
    .prepare(
      `UPDATE messages SET created_at = created_at - 120000, handed_off_at = handed_off_at - 120000 WHERE body LIKE 'Your order%'`,
    )
    .run();
  appendSimulatedSms(gw.home, { from: NUMBER, body: 'Can I pick it up myself?' }, Date.now() - 60_000);
  await gw.gateway.inbox.watcher.pollOnce();
  for (let i = 1; i <= 130; i++) await queueFrom(gw, `192.168.7.${i}`, `Reminder ${i}`);
  gw.db
    .prepare(
      `UPDATE messages SET created_at = created_at - 1200000 WHERE body GLOB 'Reminder [0-9]' OR body GLOB 'Reminder [12][0-9]'`,
    )
    .run();
  const answer = (await gw.get('/api/inbox?limit=1', SETUP_CALLER)).json().data[0] as {
    inReplyTo: { id: string } | null;
  };
  t.match(answer.inReplyTo?.id, /^msg_/, 'the answer replies to the question');
  return { gw, questionId: answer.inReplyTo?.id ?? '' };
}

/** POST /api/messages: one text to NUMBER, a day ahead, from its own address (the rate limit is per address). */
async function queueFrom(gw: Awaited<ReturnType<typeof consoleApp>>, address: string, message: string) {
  const res = await gw.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: address,
    headers: { ...gw.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ to: NUMBER, message, sendAt: new Date(Date.now() + 86_400_000).toISOString() }),
  });
  if (res.statusCode !== 202) throw new Error(`queue: ${res.statusCode} ${res.body}`);
}

/** A message's bubble by its exact text. */
const bubble = (page: Page, text: string) =>
  page.locator('li.bubble', { has: page.locator('bdi.body', { hasText: new RegExp(`^${text}$`) }) });

/**
 * Whether an element is wholly in view: inside the window (above the views' bar on a phone) and
 * inside the thread pane when the pane scrolls.
 */
const inView = (l: Locator) =>
  l.evaluate((e) => {
    const r = e.getBoundingClientRect();
    const pane = e.closest('section.thread');
    const p =
      pane && getComputedStyle(pane).overflowY === 'auto'
        ? pane.getBoundingClientRect()
        : { top: 0, bottom: innerHeight };
    const bar = document.querySelector('header.top nav');
    const end = bar && getComputedStyle(bar).position === 'fixed' ? bar.getBoundingClientRect().top : innerHeight;
    return r.top >= Math.max(0, p.top) - 1 && r.bottom <= Math.min(end, p.bottom) + 1;
  });

const top = (l: Locator) => l.evaluate((e) => e.getBoundingClientRect().top);

async function openThread(page: Page, base: string, key: string) {
  await page.goto(`${base}/`);
  await signIn(page, key);
  await openView(page, 'Conversations');
  await page
    .getByRole('list', { name: 'Conversations' })
    .getByRole('button', { name: /Reminder 130/ })
    .click();
  await bubble(page, 'Reminder 130').waitFor();
}

t.test(
  'desktop: a long thread opens at its newest message, the reply box in view; "Load older" keeps the place',
  { skip },
  async (t) => {
    const { gw, questionId } = await longThread(t);
    const { page, problems } = await openBrowser(t);
    page.setDefaultTimeout(8000);
    await openThread(page, gw.base, gw.key);
    const pane = page.locator('section.thread');
    t.ok(await inView(bubble(page, 'Reminder 130')), 'the newest message is in view');
    t.ok(await inView(pane.getByLabel('Reply')), 'and so is the reply box');
    t.ok(await inView(pane.getByRole('button', { name: 'Queue reply' })), 'and its button');
    t.notOk(await inView(bubble(page, 'Reminder 31')), 'the oldest loaded message is scrolled away above');
    await shot(page, 'thread-open-desktop', false);

    // The answer's question is not loaded: said in words with its tags, the id only as a tooltip.
    const answers = bubble(page, 'Can I pick it up myself\\?').locator('.answers');
    t.match(await answers.textContent(), /^In reply to an earlier message\s*order=1042$/, 'in words, with its tags');
    t.notMatch(await answers.textContent(), /msg_/, 'no raw id shown');
    t.equal(await answers.getAttribute('title'), `Message ${questionId}`, 'the id for the technically minded');

    // Read from the top, "Load older": the message read stays where it was, the older ones come above it.
    await pane.evaluate((e) => e.scrollTo({ top: 0, behavior: 'instant' }));
    const read = bubble(page, 'Can I pick it up myself\\?');
    const before = await top(read);
    await shot(page, 'thread-top-desktop', false);
    await pane.getByRole('button', { name: 'Load older' }).click();
    await pane.getByRole('button', { name: 'No older messages' }).waitFor();
    await bubble(page, 'Reminder 1').waitFor();
    t.ok(Math.abs((await top(read)) - before) <= 2, `the message read stays in place (${before} → ${await top(read)})`);
    t.notOk(await inView(bubble(page, 'Reminder 130')), 'no jump to the end');
    t.notOk(await inView(bubble(page, 'Reminder 1')), 'the older ones are above, out of view');
    await shot(page, 'thread-older-desktop', false);
    t.match(
      await answers.textContent(),
      /^In reply to\s*Your order 1042 has shipped\. Any question\?\s*order=1042$/,
      'now loaded: the question itself',
    );
    t.same(await axeViolations(page), [], 'axe');
    t.same(problems, []);
  },
);

t.test(
  'desktop: a new message keeps the reader at the end, and does not move one reading older ones',
  { skip },
  async (t) => {
    const { gw } = await longThread(t);
    const { page, problems } = await openBrowser(t);
    page.setDefaultTimeout(8000);
    await openThread(page, gw.base, gw.key);
    const pane = page.locator('section.thread');
    appendSimulatedSms(gw.home, { from: NUMBER, body: 'Still there?' }, Date.now());
    await gw.gateway.inbox.watcher.pollOnce();
    await bubble(page, 'Still there\\?').waitFor();
    await page.evaluate(() => new Promise(requestAnimationFrame));
    t.ok(await inView(bubble(page, 'Still there\\?')), 'at the end: the new message is shown');
    t.ok(await inView(pane.getByLabel('Reply')), 'with the reply box');

    await pane.evaluate((e) => e.scrollTo({ top: 600, behavior: 'instant' }));
    const read = bubble(page, 'Reminder 50');
    await read.waitFor();
    const before = await top(read);
    appendSimulatedSms(gw.home, { from: NUMBER, body: 'Hello?' }, Date.now() + 1000);
    await gw.gateway.inbox.watcher.pollOnce();
    await bubble(page, 'Hello\\?').waitFor();
    await page.evaluate(() => new Promise(requestAnimationFrame));
    t.equal(await top(read), before, 'scrolled up: nothing moves');
    t.notOk(await inView(bubble(page, 'Hello\\?')), 'the new one waits below');
    t.same(problems, []);
  },
);

t.test(
  'at 360x740 by keyboard: the thread opens at its newest message and reply box, the focus on the back button',
  { skip },
  async (t) => {
    const { gw } = await longThread(t);
    const { page, problems } = await openSignedIn(t, gw, 'Conversations', PHONE);
    await page
      .getByRole('list', { name: 'Conversations' })
      .getByRole('button', { name: /Reminder 130/ })
      .focus();
    await page.keyboard.press('Enter');
    const back = page.getByRole('button', { name: '← All conversations' });
    await back.waitFor();
    await page.waitForFunction(() => document.activeElement !== document.body);
    await page.evaluate(() => new Promise(requestAnimationFrame));
    t.equal(
      await page.evaluate(() => document.activeElement?.textContent?.trim()),
      '← All conversations',
      'the focus is on the back button',
    );
    t.ok(await inView(bubble(page, 'Reminder 130')), 'the newest message is in view');
    t.ok(await inView(page.getByLabel('Reply')), 'and so is the reply box');
    t.ok(await inView(back), 'the back button stays in sight');
    await shot(page, 'thread-open-phone', false);
    t.same(await axeViolations(page), [], 'axe');

    // The page scrolls here: "Load older" keeps the message read in place too.
    await page.evaluate(() => scrollTo({ top: 0, behavior: 'instant' }));
    const read = bubble(page, 'Can I pick it up myself\\?');
    const before = await top(read);
    await page.getByRole('button', { name: 'Load older' }).click();
    await page.getByRole('button', { name: 'No older messages' }).waitFor();
    await bubble(page, 'Reminder 1').waitFor();
    t.ok(Math.abs((await top(read)) - before) <= 2, `the message read stays in place (${before} → ${await top(read)})`);
    t.notOk(await inView(bubble(page, 'Reminder 1')), 'the older ones are above, out of view');
    t.ok(await inView(back), 'the back button is still in sight');
    await shot(page, 'thread-older-phone', false);
    await back.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Conversations' }).waitFor();
    t.same(problems, []);
  },
);
