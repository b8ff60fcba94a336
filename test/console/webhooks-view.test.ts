/// <reference lib="dom" />
// The Webhooks view on a phone (a real chromium): what an add, a removal or the test event
// answers is shown where that was done and scrolled into view, not above a list of targets
// that pushes it out of sight; axe-clean with an answer in the form.
import t from 'tap';
import {
  axeViolations,
  consoleApp,
  delayListReadAfterAdd,
  firstLineInView,
  hasChromium,
  openSignedIn,
  PHONE,
} from './browser.js';

const skip = !hasChromium && 'no /usr/bin/chromium (apt-get install chromium)';

t.test(
  'Webhooks on a phone: a refused target says why where the form is, not out of sight above the list',
  { skip },
  async (t) => {
    const gw = await consoleApp(t);
    for (let i = 1; i <= 6; i++)
      gw.gateway.webhooks.targets.add(`http://127.0.0.1:9/a-rather-long-path/hook-number-${i}`, Date.now());
    const { page, problems } = await openSignedIn(t, gw, 'Webhooks', PHONE);
    await page.getByText('http://127.0.0.1:9/a-rather-long-path/hook-number-6').waitFor();
    const url = page.getByLabel('New target URL (http:// or https://)');
    await url.fill('http://user:secret@127.0.0.1:9/hook');
    await page.getByRole('button', { name: 'Add target' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    t.match(await alert.textContent(), /user:password/, 'the 400 message as the gateway gives it');
    t.ok(await alert.evaluate(firstLineInView), 'the refusal is in view beside the form');
    t.equal(await url.inputValue(), 'http://user:secret@127.0.0.1:9/hook', 'the form keeps what was typed');
    t.same(await axeViolations(page), [], 'a refusal in the form: axe');

    // The list read again after the add answers late (a busy phone): the note must still end in view.
    await delayListReadAfterAdd(page, '/api/webhooks');
    await url.fill('http://127.0.0.1:9/hook-seven');
    await page.getByRole('button', { name: 'Add target' }).click();
    const note = page.getByText(/^Added wh_/);
    await note.waitFor();
    await page.getByText('http://127.0.0.1:9/hook-seven').waitFor();
    t.ok(await note.evaluate(firstLineInView), 'so is the note that it was added, once the list has grown by it');

    await page.getByRole('button', { name: 'Send the test event to every target' }).click();
    const sent = page.getByText('Test event sent to 7 targets.');
    await sent.waitFor();
    t.ok(await sent.evaluate(firstLineInView), "the test event's note is in view beside its button");
    t.equal(await page.getByText(/^Added wh_/).count(), 0, 'the earlier note is gone');
    t.same(problems, []);
  },
);
