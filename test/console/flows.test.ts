/// <reference lib="dom" />
// The console in a real browser (Debian's chromium): sign in with the QR code's text, send,
// see it in the history with its details, queue one for later and cancel it, receive one
// (the simulated inbox `sms-gateway simulate receive` writes) and see it in its conversation, add
// and remove a webhook target, rotate the key and sign in with the new one; axe-core finds
// no serious or critical violation on any view; nothing opens a dialog or logs an error.
import t from 'tap';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import { axeViolations, consoleApp, hasChromium, openBrowser, openView, signIn } from './browser.js';

t.test(
  'every view, end to end',
  { skip: !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)' },
  async (t) => {
    const gw = await consoleApp(t, { inbox: true });
    const { page, problems } = await openBrowser(t);
    await page.goto(`${gw.base}/`);
    t.same(await axeViolations(page), [], 'sign-in: no serious or critical axe violation');
    t.ok(
      await page.getByText('Simulated mode: nothing is really sent').isVisible(),
      'says the phone is in simulated mode',
    );

    // The QR code's JSON text, as a phone's scanner gives it.
    await signIn(page, JSON.stringify({ url: gw.base, key: gw.key }));
    t.equal(await page.evaluate(() => sessionStorage.length), 1, 'the key is in sessionStorage');
    t.equal(
      await page.evaluate(() => localStorage.getItem('sms-gateway-key')),
      null,
      'not in localStorage without "remember"',
    );
    await page.getByRole('heading', { name: 'Sent and failed per day' }).waitFor();
    t.equal(await page.locator('svg[role="img"] g').count(), 14, 'a chart of 14 days');
    t.ok(await page.getByText('Send budget', { exact: true }).isVisible(), 'the diagnostics checks are listed');
    t.same(await axeViolations(page), [], 'overview');

    // Send now, with the live counter.
    await openView(page, 'Send');
    await page.getByLabel('Recipients').fill('+15551230001');
    await page.getByLabel('Message', { exact: true }).fill('Hello from the console');
    t.match(await page.locator('#counter').textContent(), /22 GSM-7 characters, 1 segment/);
    await page.getByLabel('Message', { exact: true }).fill('Hello 🙂');
    t.match(await page.locator('#counter').textContent(), /UCS-2/, 'an emoji switches to UCS-2');
    await page.getByLabel('Message', { exact: true }).fill('Hello from the console');
    t.same(await axeViolations(page), [], 'send');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText(/^Sent: msg_/).waitFor();
    t.equal(gw.handoffs.length, 1, 'handed to the phone');

    // The history and one message's details.
    await openView(page, 'History');
    await page.getByText('Hello from the console').waitFor();
    await page.locator('main .msg-line', { hasText: '+15551230001' }).click();
    await page.getByRole('region', { name: 'Message details' }).waitFor();
    t.ok(await page.getByRole('region', { name: 'Message details' }).getByText('sent', { exact: true }).isVisible());
    t.same(await axeViolations(page), [], 'history');
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No message here.').waitFor();

    // Queue one for tomorrow, see it waiting, cancel it.
    await openView(page, 'Send');
    await page.getByLabel('Recipients').fill('+15551230002, +15551230003');
    await page.getByLabel('Message', { exact: true }).fill('Practice moved to 18:00');
    await page.getByLabel('Queue for later').check();
    const tomorrow = new Date(Date.now() + 86_400_000);
    const local = new Date(tomorrow.getTime() - tomorrow.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await page.getByLabel("Send at (this device's time)").fill(local);
    await page.getByRole('button', { name: 'Queue', exact: true }).click();
    await page.getByText(/^Queued 2 messages for /).waitFor();
    await openView(page, 'Queue');
    await page.getByRole('button', { name: 'Cancel the message to +15551230002' }).waitFor();
    t.same(await axeViolations(page), [], 'queue');
    await page.getByRole('button', { name: 'Cancel the message to +15551230002' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the message' }).click();
    await page.getByText('Cancelled the message to +15551230002.').waitFor();
    await page.getByRole('button', { name: 'Cancel the message to +15551230003' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel the message' }).click();
    await page.getByText('No message is waiting.').waitFor();
    t.equal((await gw.get('/api/messages?status=cancelled')).json().pagination.total, 2, 'both cancelled');

    // Receive two and see them in one conversation, the number written two ways.
    gw.gateway.inbox.start();
    await gw.gateway.inbox.watcher.pollOnce();
    appendSimulatedSms(gw.home, { from: '+15559870001', body: 'Is the shop open today?' }, Date.now());
    appendSimulatedSms(gw.home, { from: '+1 555 987 0001', body: 'Never mind, found it.' }, Date.now());
    await gw.gateway.inbox.watcher.pollOnce();
    await openView(page, 'Conversations');
    // One thread, named as the newest one wrote it.
    await page.getByRole('button', { name: /\+1 555 987 0001/ }).click();
    const thread = page.getByRole('region', { name: '+1 555 987 0001' });
    await thread.getByText('Is the shop open today?').waitFor();
    t.ok(await thread.getByText('Never mind, found it.').isVisible(), 'the same number written two ways is one thread');
    t.same(await axeViolations(page), [], 'inbox');

    // Add a webhook target, test it, remove it.
    await openView(page, 'Webhooks');
    await page.getByText('No webhook target.').waitFor();
    await page.getByLabel('New target URL').fill('http://127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Add target' }).click();
    await page.getByText('http://127.0.0.1:9/hook').waitFor();
    t.same(await axeViolations(page), [], 'webhooks');
    const id = (await gw.get('/api/webhooks')).json().data[0].id as string;
    await page.getByRole('button', { name: `Remove ${id}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove the target' }).click();
    await page.getByText(`Removed ${id}.`).waitFor();
    await page.getByText('No webhook target.').waitFor();
    t.same((await gw.get('/api/webhooks')).json().data, [], 'removed on the gateway');

    // Rotate the key: the console shows the new one once and asks for it.
    await openView(page, 'Key');
    t.same(await axeViolations(page), [], 'key');
    await page.getByRole('button', { name: 'Rotate the key…' }).click();
    await page.getByRole('button', { name: 'Yes, rotate it now' }).click();
    await page.getByText('The key was rotated. Sign in with the new key.').waitFor();
    const newKey = await page.getByLabel(/^The new key/).inputValue();
    t.match(newKey, /^sk_local_[A-Za-z0-9]{32}$/);
    t.equal(gw.keyFile.current(), newKey, 'the gateway holds the new key');
    t.equal(await page.evaluate(() => sessionStorage.length + localStorage.length), 0, 'the old key is forgotten');
    await signIn(page, newKey, true, 'API key'); // back where the key was rotated
    t.equal(
      await page.evaluate(() => localStorage.getItem('sms-gateway-key')),
      newKey,
      '"remember on this device" keeps it in localStorage',
    );
    t.same(problems, [], 'no dialog, console error, page error or CSP violation');
  },
);

t.test('keyboard alone: sign in and move between views', { skip: !hasChromium && 'no chromium' }, async (t) => {
  const gw = await consoleApp(t);
  const { page, problems } = await openBrowser(t);
  await page.goto(`${gw.base}/`);
  await page.keyboard.press('Tab'); // the skip link
  await page.keyboard.press('Tab');
  t.equal(await page.evaluate(() => document.activeElement?.id), 'key', 'the key field takes the focus');
  await page.keyboard.type(gw.key);
  await page.keyboard.press('Tab'); // the "show" toggle
  await page.keyboard.press('Tab');
  await page.keyboard.press('Space');
  t.ok(await page.getByLabel('Remember on this device').isChecked(), 'the box ticks with Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  await page.getByRole('link', { name: 'Send', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Send', level: 1 }).waitFor();
  await page.keyboard.press('Tab'); // Inbox? no: the next link, Queue
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Queue', level: 1 }).waitFor();
  t.pass('views reached with Tab and Enter');
  t.same(problems, []);
});
