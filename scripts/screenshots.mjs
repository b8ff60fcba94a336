// npm run screenshots: PNGs of every console view at desktop and phone size, in the light and
// the dark scheme (*-dark.png), into docs/screenshots/, from a simulated gateway (the built
// dist/, a temp home, port 8080: stop any other gateway first) seeded with a few messages
// (tagged alarms and reminders, one refused for an opt-out), driven by Debian's chromium
// through playwright-core; and an opened conversation (thread-*.png: on a desktop beside a
// search of the thread list) with its "Load older" button.
import { appendFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { chromium } from 'playwright-core';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'docs/screenshots');
const home = mkdtempSync(join(tmpdir(), 'smsgw-shots-'));
const port = 8080;
const base = `http://127.0.0.1:${port}`;
const env = {
  ...process.env,
  SMS_GATEWAY_HOME: home,
  SMS_GATEWAY_MODE: 'simulated',
  SMS_GATEWAY_INBOX: 'true',
  SMS_GATEWAY_INBOX_POLL_SECONDS: '2',
};
const DAY = 86_400_000;
const cli = (args) =>
  new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(root, 'bin/sms-gateway'), ...args], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.on('exit', (code) => (code === 0 ? ok(text.trim()) : fail(new Error(`sms-gateway ${args.join(' ')}: ${code}`))));
  });

/**
 * 98 old parcel notices from one sender, written straight into the simulated inbox (the lines
 * src/device/simulated-inbox.ts appendSimulatedSms writes, ids after `lastId`): with them the
 * inbox holds over the 100 received SMS Conversations reads, so a thread offers "Load older".
 */
function parcelNotices(lastId) {
  const lines = Array.from({ length: 98 }, (_, i) => {
    const body = `Your parcel ${4711 + i} is in locker ${(i % 12) + 1}. Pick-up code ${100_000 + ((i * 7919) % 900_000)}.`;
    return `${JSON.stringify({ id: lastId + 1 + i, from: 'PARCEL', body, at: Date.now() - (98 - i) * DAY })}\n`;
  });
  appendFileSync(join(home, 'simulated-inbox.jsonl'), lines.join(''), { mode: 0o600 });
}

/** Waits until GET /api/inbox holds `total` received SMS. */
async function inboxHolds(api, total) {
  for (let i = 0; ; i++) {
    const page = await (await api('GET', '/api/inbox?limit=1')).json();
    if (page.pagination?.total >= total) return;
    if (i > 50) throw new Error(`the inbox holds ${page.pagination?.total} SMS, not ${total}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** A conversation (a question, a tagged answer, its reply), a long text from another number, the parcel notices. */
async function seedConversations(api) {
  await new Promise((r) => setTimeout(r, 3000)); // the inbox watcher's first read (its baseline)
  parcelNotices(0);
  await cli(['simulate', 'receive', '--from', '+15559870001', 'Is the shop open today?']);
  await inboxHolds(api, 99); // stored before the answer is sent: it is no reply to it
  await api('POST', '/api/sms/send', { to: '+15559870001', message: 'Yes, until 18:00.', tags: { ticket: 'T-7' } });
  await new Promise((r) => setTimeout(r, 1500)); // a received time has whole seconds: the reply comes a second later
  await cli(['simulate', 'receive', '--from', '+15559870001', 'Thanks! See you at 5.']);
  await cli([
    'simulate',
    'receive',
    '--from',
    '+15554440002',
    'Hi! The plumber comes tomorrow between 8 and 10: please leave the side gate open and keep the dog inside.',
  ]);
  await inboxHolds(api, 101);
}

/** A history worth scanning: tagged alarms and reminders (sent as the pace allows), one refused for an opt-out. */
async function seedHistory(api) {
  const to = (from, n) => Array.from({ length: n }, (_, i) => `+1555200${String(from + i).padStart(4, '0')}`);
  const batches = [
    [0, 'Garage door left open for 10 minutes.', { alarm: 'home', zone: 'garage' }],
    [10, 'Office alarm armed at 19:02 by the last one out.', { alarm: 'office' }],
    [20, 'Reminder: the bins go out tonight, the paper ones too.', { list: 'household' }],
  ];
  for (const [from, message, tags] of batches) await api('POST', '/api/messages', { to: to(from, 6), message, tags });
  await api('POST', '/api/opt-outs', { number: '+15557770001' });
  await api('POST', '/api/messages', { to: '+15557770001', message: 'Your code is 4711.' });
}

/** The shop's conversation opened (on a desktop beside the thread list searched for "shop"), at the top of the page. */
async function shootThread(page, size, suffix) {
  await page.goto(`${base}/#/inbox`);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  if (size === 'desktop') {
    await page.getByLabel('Search number or text').fill('shop');
    await page.getByText('1 conversation matches.').waitFor();
  }
  await page.getByRole('button', { name: /\+15559870001/ }).click();
  await page.getByRole('button', { name: 'Load older' }).waitFor();
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(out, `thread-${size}${suffix}.png`) });
}

mkdirSync(out, { recursive: true });
const key = (await cli(['key', 'rotate'])).split('\n').at(-1); // a fresh home has no key until one is made
try {
  await fetch(`${base}/health`);
  throw new Error(`something already answers on ${base}: stop it first`);
} catch (err) {
  if (String(err).includes('already answers')) throw err;
}
const gateway = spawn(process.execPath, [join(root, 'bin/sms-gateway'), 'start'], { env, stdio: 'ignore' });
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/health`)).ok) break;
    } catch {
      /* not yet */
    }
    if (i > 100) throw new Error('the gateway did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  const api = (method, path, body) =>
    fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: body && JSON.stringify(body),
    });
  await api('POST', '/api/sms/send', { to: '+15551230001', message: 'Your order has shipped.' });
  await api('POST', '/api/messages', {
    to: ['+15551230002', '+15551230003'],
    message: 'Practice moved to 18:00',
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await seedHistory(api);
  await seedConversations(api);
  await api('POST', '/api/webhooks', { url: 'http://192.168.1.60:8123/api/webhook/sms' });
  await api('POST', '/api/rules', { keyword: 'STATUS', match: 'prefix', reply: 'All fine at home.' });
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const sizes = [
    ['desktop', { width: 1280, height: 860 }],
    ['phone', { width: 360, height: 740 }],
  ];
  for (const [[size, viewport], colorScheme] of sizes.flatMap((s) => [
    [s, 'light'],
    [s, 'dark'],
  ])) {
    const suffix = colorScheme === 'dark' ? '-dark' : '';
    const page = await browser.newPage({ viewport, colorScheme });
    await page.goto(`${base}/`);
    await page.screenshot({ path: join(out, `login-${size}${suffix}.png`) });
    await page.getByLabel("API key, or the QR code's text").fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const view of ['overview', 'send', 'queue', 'history', 'inbox', 'rules', 'webhooks', 'key']) {
      await page.goto(`${base}/#/${view}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForTimeout(700);
      await page.screenshot({ path: join(out, `${view}-${size}${suffix}.png`), fullPage: size === 'desktop' });
    }
    await shootThread(page, size, suffix);
    await page.close();
  }
  await browser.close();
  console.log(`screenshots in ${out}`);
} finally {
  gateway.kill('SIGTERM');
  await new Promise((r) => gateway.once('exit', r));
  rmSync(home, { recursive: true, force: true });
}
