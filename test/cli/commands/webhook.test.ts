import t from 'tap';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { openDatabase } from '../../../src/store/database.js';
import { createOutboxStore } from '../../../src/events/outbox.js';
import { tempDir, runCli } from '../../helper.js';
import { startReceiver } from '../../fixtures/receiver.js';

const run = runCli;

t.test('secret prints the same secret until rotate replaces it', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  const a = await run(['webhook', 'secret'], env);
  t.equal(a.code, 0);
  t.match(a.out, /^whsec_[A-Za-z0-9+/]{43}=\n$/);
  t.equal((await run(['webhook', 'secret'], env)).out, a.out);
  const r = await run(['webhook', 'rotate'], env);
  t.not(r.out, a.out);
  t.equal((await run(['webhook', 'secret'], env)).out, r.out);
  t.equal((await run(['webhook'], env)).code, 2);
  t.equal((await run(['webhook', 'send'], env)).code, 2);
});

t.test('test sends a signed event to every target and prints each answer', async (t) => {
  const good = await startReceiver(t);
  const bad = await startReceiver(t, () => 500);
  const home = tempDir(t);
  const env = { SMS_GATEWAY_HOME: home, SMS_GATEWAY_WEBHOOK_URLS: `${good.url},${bad.url}` };
  const secret = (await run(['webhook', 'secret'], env)).out.trim();
  const r = await run(['webhook', 'test'], env);
  t.equal(r.code, 1, 'one target failed');
  t.match(r.out, new RegExp(`${good.url}: delivered \\(HTTP 200\\)`));
  t.match(r.out, new RegExp(`${bad.url}: FAILED \\(HTTP 500\\)`));
  const event = new Webhook(secret).verify(good.received[0]!.body, good.received[0]!.headers as Record<string, string>) as { type: string };
  t.equal(event.type, 'gateway.test');
  const none = await run(['webhook', 'test'], { SMS_GATEWAY_HOME: home });
  t.equal(none.code, 1);
  t.match(none.err, /no webhook targets: set SMS_GATEWAY_WEBHOOK_URLS/);
});

t.test('a receiver that answers 401 or 404: the line says the likely cause', async (t) => {
  const unsigned = await startReceiver(t, () => 401);
  const missing = await startReceiver(t, () => 404);
  const home = tempDir(t);
  const r = await run(['webhook', 'test'], { SMS_GATEWAY_HOME: home, SMS_GATEWAY_WEBHOOK_URLS: `${unsigned.url},${missing.url}` });
  t.equal(r.code, 1);
  t.match(
    r.out,
    `${unsigned.url}: FAILED (HTTP 401): the receiver refused the signature. The likely cause is the secret: give the receiver the one in ${join(home, 'webhook-secret')} (\`sms-gateway webhook secret\`, with the same SMS_GATEWAY_HOME as the gateway)`,
  );
  t.match(r.out, `${missing.url}: FAILED (HTTP 404): the receiver has no such route: check the path in SMS_GATEWAY_WEBHOOK_URLS`);
  const closed = await run(['webhook', 'test'], { SMS_GATEWAY_HOME: home, SMS_GATEWAY_WEBHOOK_URLS: 'http://127.0.0.1:9/hook' });
  t.match(closed.out, /FAILED \(cannot connect.*\): is the receiver running, and reachable from this phone\?/);
});

t.test('a target switched off by 410 is switched back on when test reaches it', async (t) => {
  const rx = await startReceiver(t);
  const home = tempDir(t);
  const db = openDatabase(join(home, 'gateway.db'));
  const outbox = createOutboxStore(db);
  outbox.syncTargets([rx.url]);
  outbox.disable(rx.url, Date.now(), 'HTTP 410 Gone: switched off');
  const r = await run(['webhook', 'test'], { SMS_GATEWAY_HOME: home, SMS_GATEWAY_WEBHOOK_URLS: rx.url });
  t.equal(r.code, 0);
  t.match(r.out, /delivered \(HTTP 200\); switched back on/);
  t.equal(outbox.status()[0]!.disabled, false);
  db.close();
});
