// npm run screenshots: PNGs of every console view at desktop and phone size into
// docs/screenshots/, from a simulated gateway (the built dist/, a temp home, port 8080:
// stop any other gateway first) seeded with a few messages, driven by Debian's chromium through playwright-core.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
const env = { ...process.env, SMS_GATEWAY_HOME: home, SMS_GATEWAY_MODE: 'simulated', SMS_GATEWAY_INBOX: 'true' };
const cli = (args) =>
  new Promise((ok, fail) => {
    const p = spawn(process.execPath, [join(root, 'bin/sms-gateway'), ...args], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let text = '';
    p.stdout.on('data', (d) => (text += d));
    p.on('exit', (code) => (code === 0 ? ok(text.trim()) : fail(new Error(`sms-gateway ${args.join(' ')}: ${code}`))));
  });

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
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) });
  await api('POST', '/api/sms/send', { to: '+15551230001', message: 'Your order has shipped.' });
  await api('POST', '/api/messages', {
    to: ['+15551230002', '+15551230003'],
    message: 'Practice moved to 18:00',
    sendAt: new Date(Date.now() + 86_400_000).toISOString(),
  });
  await new Promise((r) => setTimeout(r, 1500)); // the inbox watcher's first read (its baseline)
  await cli(['simulate', 'receive', '--from', '+15559870001', 'Is the shop open today?']);
  await new Promise((r) => setTimeout(r, 16_000)); // the watcher's next read (every 15 s)
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
  for (const [size, viewport] of [
    ['desktop', { width: 1280, height: 860 }],
    ['phone', { width: 360, height: 740 }],
  ]) {
    const page = await browser.newPage({ viewport });
    await page.goto(`${base}/`);
    await page.screenshot({ path: join(out, `login-${size}.png`) });
    await page.getByLabel("API key, or the QR code's text").fill(key);
    await page.getByRole('button', { name: 'Sign in' }).click();
    for (const view of ['overview', 'send', 'queue', 'history', 'inbox', 'rules', 'webhooks', 'key']) {
      await page.goto(`${base}/#/${view}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForTimeout(700);
      await page.screenshot({ path: join(out, `${view}-${size}.png`), fullPage: size === 'desktop' });
    }
    await page.close();
  }
  await browser.close();
  console.log(`screenshots in ${out}`);
} finally {
  gateway.kill('SIGTERM');
  await new Promise((r) => gateway.once('exit', r));
  rmSync(home, { recursive: true, force: true });
}
