// SMSGate's webhook registrations on the composed gateway: register, replace, list, delete in its
// dialect (Basic sms:<key>); its envelopes from the same outbox, signed as SMSGate signs (checked
// here with its recipe: hex HMAC-SHA256 of the raw body followed by X-Timestamp, keyed with
// GET /settings's webhooks.signing_key), one envelope id across retries; system:ping only while
// registered, at its interval on the fake clock; the export of stored received SMS.
import { createHmac } from 'node:crypto';
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { withSimulatedInbox } from '../helpers/received-sms.js';
import { testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';
import { startReceiver, type Received } from '../fixtures/receiver.js';

type App = Awaited<ReturnType<typeof testApp>>;

function sg(a: App) {
  const authorization = `Basic ${Buffer.from(`sms:${a.key}`).toString('base64')}`;
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    a.clock.advance(200); // under the per-caller rate limit
    return a.app.inject({
      method,
      url,
      remoteAddress: '192.168.1.50',
      headers: { authorization, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  };
  return {
    req,
    register: (body: unknown, url = '/webhooks') => req('POST', url, body),
    list: (url = '/webhooks') => req('GET', url),
    remove: (id: string, url = '/webhooks') => req('DELETE', `${url}/${id}`),
    signingKey: async () => (await req('GET', '/settings')).json().webhooks.signing_key as string,
  };
}

/** SMSGate's recipe, as its documentation gives it to receivers. */
function verify(r: Received, key: string): boolean {
  const ts = String(r.headers['x-timestamp']);
  const expected = createHmac('sha256', key)
    .update(r.body + ts)
    .digest('hex');
  return r.headers['x-signature'] === expected;
}

t.test('register, replace by id, list in both spellings, delete', async (t) => {
  const a = await testApp(t, { inboxPollMs: 30_000 });
  const s = sg(a);
  t.notOk(a.gateway.inbox.enabled(), 'nobody listens: the inbox watcher is off');
  const res = await s.register({ url: 'http://192.168.1.10:8123/api/webhook/abc', event: 'sms:received' });
  t.equal(res.statusCode, 201, 'http:// on the LAN is allowed');
  t.ok(a.gateway.inbox.enabled(), 'an sms:received registration listens: the watcher may run');
  const made = res.json();
  t.same(made, {
    id: made.id,
    deviceId: null,
    url: 'http://192.168.1.10:8123/api/webhook/abc',
    event: 'sms:received',
    source: 'Local',
  });
  const mine = await s.register({ id: 'ha-sent', url: 'https://hooks.example.net/a', event: 'sms:sent' }, '/webhook');
  t.equal(mine.statusCode, 201);
  const replaced = await s.register({ id: 'ha-sent', url: 'https://hooks.example.net/b', event: 'sms:failed' });
  t.equal(replaced.statusCode, 201, 'the same id again replaces');
  t.same(
    (await s.list()).json().map((w: { id: string; url: string; event: string }) => [w.id, w.url, w.event]),
    [
      [made.id, 'http://192.168.1.10:8123/api/webhook/abc', 'sms:received'],
      ['ha-sent', 'https://hooks.example.net/b', 'sms:failed'],
    ],
  );
  t.same((await s.list('/webhook')).json(), (await s.list()).json(), 'the singular lists the same');
  t.same((await a.get('/api/webhooks')).json().data, [], '/api/webhooks lists its own targets only');
  t.equal((await s.register({ url: 'https://x.example/', event: 'sms:delivered' })).statusCode, 201, 'never sent');

  t.equal((await s.remove('ha-sent')).statusCode, 204);
  t.equal((await s.remove('ha-sent', '/webhook')).statusCode, 204, 'an unknown id: 204, as SMSGate answers');
  t.same(
    (await s.list()).json().map((w: { event: string }) => w.event),
    ['sms:received', 'sms:delivered'],
    'ha-sent is gone',
  );
});

t.test('bad registrations are 400 in SMSGate shape', async (t) => {
  const a = await testApp(t);
  const s = sg(a);
  for (const body of [
    { url: 'ftp://192.168.1.10/x', event: 'sms:received' },
    { url: 'not a url', event: 'sms:received' },
    { url: 'https://user:pw@example.net/', event: 'sms:received' },
    { url: 'https://example.net/', event: 'sms:exploded' },
    { url: 'https://example.net/' },
    { url: 'https://example.net/', event: 'sms:received', deviceId: 'another-phone' },
  ]) {
    const res = await s.register(body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
    t.match(res.json(), { message: String }, 'a message');
  }
  t.same((await s.list()).json(), [], 'nothing registered');
  const bearer = await a.app.inject({ url: '/webhooks', remoteAddress: '192.168.1.51', headers: a.auth });
  t.equal(bearer.statusCode, 200, 'Bearer works too');
  const none = await a.app.inject({ url: '/webhooks', remoteAddress: '192.168.1.51' });
  t.equal(none.statusCode, 401);
});

t.test('sms:received in SMSGate envelope, signed with its recipe under GET /settings signing_key', async (t) => {
  const rx = await startReceiver(t);
  const a = await withSimulatedInbox(t, { clock: fakeClock(Date.now()), phoneNumber: '+15550009999' });
  const s = sg(a);
  const hook = (await s.register({ id: 'rx', url: rx.url, event: 'sms:received' })).json();
  await a.receive('+15551234567', 'Hello there');
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  const r = rx.received[0]!;
  const key = await s.signingKey();
  t.ok(verify(r, key), 'X-Signature is hex HMAC-SHA256(signing_key, body + X-Timestamp)');
  t.match(String(r.headers['x-timestamp']), /^\d{10}$/, 'Unix seconds');
  t.notOk(r.headers['webhook-signature'], 'not the native signature');
  const e = JSON.parse(r.body);
  t.same(Object.keys(e), ['id', 'webhookId', 'event', 'deviceId', 'payload']);
  t.equal(e.webhookId, hook.id);
  t.equal(e.event, 'sms:received');
  t.match(e.payload, {
    messageId: /^in_/,
    sender: '+15551234567',
    recipient: '+15550009999',
    simNumber: null,
    phoneNumber: '+15551234567',
    message: 'Hello there',
    receivedAt: /^\d{4}-\d\d-\d\dT/,
  });
  t.notOk(verify({ ...r, body: r.body.replace('Hello', 'Jello') }, key), 'a changed body fails the check');
  const id = (await a.get('/api/inbox')).json().data[0].id;
  t.equal(e.payload.messageId, id, "the messageId is the stored SMS's id");
});

t.test('sms:sent and sms:failed payloads; one envelope id across retries', async (t) => {
  let n = 0;
  const rx = await startReceiver(t, () => (n++ === 0 ? 500 : 200));
  const a = await testApp(t, { clock: fakeClock(Date.now()), random: () => 0.5 });
  const s = sg(a);
  await s.register({ id: 'sent', url: rx.url, event: 'sms:sent' });
  t.equal((await a.send({ to: '+15551230001', message: 'hi' })).statusCode, 200);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'the first attempt failed (500)');
  a.clock.advance(20_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2, 'retried');
  const [first, second] = rx.received.map((r) => JSON.parse(r.body));
  t.equal(first.id, second.id, 'the same envelope id on every retry');
  t.equal(rx.received[0]!.body, rx.received[1]!.body, 'the same body');
  t.not(rx.received[0]!.headers['x-timestamp'], rx.received[1]!.headers['x-timestamp'], 'each attempt its timestamp');
  t.ok(verify(rx.received[1]!, await s.signingKey()));
  const msg = (await a.get('/api/messages')).json().data[0];
  t.match(first.payload, {
    messageId: msg.id,
    recipient: '+15551230001',
    phoneNumber: '+15551230001',
    simNumber: 1,
    partsCount: 1,
    sentAt: msg.updatedAt,
  });

  a.gateway.webhooks.reportSmsgate({ smsgateIdOf: (id) => (id === msg.id ? 'never-used' : 'from-smsgate') });
  await s.register({ id: 'failed', url: rx.url, event: 'sms:failed' });
  t.equal((await a.send({ to: '+15551230002', message: 'hi again' })).statusCode, 200);
  await a.gateway.webhooks.delivery.runDue();
  const third = JSON.parse(rx.received[2]!.body);
  t.equal(third.event, 'sms:sent');
  t.equal(third.payload.messageId, 'from-smsgate', "SMSGate's id when the message came through its POST /message");
  t.equal(rx.received.length, 3, 'no sms:failed for a sent message');
});

t.test('an SMSGate registration that answers 410 is removed', async (t) => {
  const rx = await startReceiver(t, () => 410);
  const a = await testApp(t, { clock: fakeClock(Date.now()) });
  const s = sg(a);
  await s.register({ id: 'gone', url: rx.url, event: 'sms:sent' });
  await a.send({ to: '+15551230001', message: 'hi' });
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  t.same((await s.list()).json(), []);
});

t.test('system:ping only while registered, every SMS_GATEWAY_PING_MINUTES, carrying the health', async (t) => {
  const rx = await startReceiver(t);
  const a = await testApp(t, { clock: fakeClock(Date.now()) });
  const s = sg(a);
  const ping = a.gateway.webhooks.smsgate.ping;
  ping.start();
  await a.clock.tick(0);
  t.notOk(ping.hasTimer(), 'no registration: no timer');
  await s.register({ id: 'other', url: rx.url, event: 'sms:received' });
  t.notOk(ping.hasTimer(), 'another event: still no timer');
  await s.register({ id: 'ping', url: rx.url, event: 'system:ping' });
  await a.clock.tick(0);
  t.ok(ping.hasTimer(), 'a system:ping registration: the timer');
  await a.clock.tick(14 * 60_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 0, 'nothing before the interval');
  await a.clock.tick(60_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'one ping at 15 minutes');
  const e = JSON.parse(rx.received[0]!.body);
  t.equal(e.event, 'system:ping');
  t.equal(e.webhookId, 'ping');
  t.match(e.payload.health, { status: /^(pass|warn|fail)$/, version: String, releaseId: Number, checks: Object });
  t.match(e.payload.health.checks['messages:failed'], { observedUnit: 'messages' });
  t.ok(verify(rx.received[0]!, await s.signingKey()));
  await a.clock.tick(15 * 60_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2, 'the next one interval later');
  t.equal((await s.remove('ping')).statusCode, 204);
  await a.clock.tick(0);
  t.notOk(ping.hasTimer(), 'removed: no timer');
  await a.clock.tick(60 * 60_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2, 'no ping after the removal');
});

t.test('export announces the stored received SMS of the range again', async (t) => {
  const rx = await startReceiver(t);
  const a = await withSimulatedInbox(t, { clock: fakeClock(Date.UTC(2026, 10, 21, 12, 0, 0)) });
  const s = sg(a);
  await a.receive('+15551234567', 'first');
  a.clock.advance(3600_000);
  await a.receive('+15551234567', 'second');
  const between = new Date(a.clock.now() - 1800_000).toISOString();
  await s.register({ id: 'rx', url: rx.url, event: 'sms:received' });
  const until = new Date(a.clock.now() + 60_000).toISOString();
  const since = new Date(a.clock.now() - 86_400_000).toISOString();

  t.equal((await s.req('POST', '/messages/inbox/export', { since, until, triggerWebhooks: false })).statusCode, 202);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 0, 'triggerWebhooks false: nothing');

  t.equal((await s.req('POST', '/messages/inbox/export', { since, until })).statusCode, 202);
  await a.gateway.webhooks.delivery.runDue();
  t.same(
    rx.received.map((r) => JSON.parse(r.body).payload.message),
    ['first', 'second'],
    'oldest first',
  );
  t.equal((await s.req('POST', '/inbox/export', { since: between, until })).statusCode, 202);
  await a.gateway.webhooks.delivery.runDue();
  t.same(
    rx.received.slice(2).map((r) => JSON.parse(r.body).payload.message),
    ['second'],
    'only the range',
  );
  const ids = rx.received.map((r) => JSON.parse(r.body).id);
  t.equal(new Set(ids).size, ids.length, 'each announcement a new event');

  const wrong = await s.req('POST', '/messages/inbox/export', { since: until, until: since });
  t.equal(wrong.statusCode, 400);
  t.match(wrong.json(), { message: /since must be before until/ });
  t.equal((await s.req('POST', '/messages/inbox/export', { since: 'yesterday', until })).statusCode, 400);
  t.equal((await s.req('POST', '/messages/inbox/export', { until })).statusCode, 400);
});

t.test('GET /settings: what maps, in SMSGate keys, with the signing key', async (t) => {
  const a = await testApp(t, { queueRate: 20 });
  const res = await sg(a).req('GET', '/settings');
  t.equal(res.statusCode, 200);
  t.same(res.json(), {
    messages: {
      limit_period: 'PerMinute',
      limit_value: 20,
      send_interval_min: 1,
      processing_order: 'FIFO',
      quiet_hours: null,
    },
    ping: { interval_seconds: 900 },
    webhooks: {
      internet_required: false,
      retry_count: res.json().webhooks.retry_count,
      signing_key: res.json().webhooks.signing_key,
    },
  });
  t.ok(res.json().webhooks.retry_count > 20, 'retries within 24 hours');
  t.equal(res.json().webhooks.signing_key, 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', "the gateway's webhook secret");
});

t.test('registrations are kept across a restart; a native target on the same URL gets its own form', async (t) => {
  const rx = await startReceiver(t);
  const home = tempDir(t);
  const first = await testApp(t, { home, webhookUrls: [rx.url], clock: fakeClock(Date.now()) });
  await sg(first).register({ id: 'kept', url: rx.url, event: 'sms:sent' });
  const again = await testApp(t, { home, webhookUrls: [rx.url], clock: fakeClock(Date.now() + 60_000) });
  t.same(
    (await sg(again).list()).json().map((w: { id: string }) => w.id),
    ['kept'],
    'kept in the database',
  );
  await again.send({ to: '+15551230001', message: 'both' });
  await again.gateway.webhooks.delivery.runDue();
  const forms = rx.received.map((r) =>
    r.headers['x-signature'] ? 'smsgate' : r.headers['webhook-signature'] ? 'native' : '?',
  );
  t.same(forms.sort(), ['native', 'smsgate'], 'one of each, each signed its way');
});

t.test('a DELETE with Content-Type: application/json and no body is a delete, not a bad JSON body', async (t) => {
  const a = await testApp(t);
  const s = sg(a);
  const made = (await s.register({ url: 'http://192.168.1.10:8123/api/webhook/x', event: 'sms:received' })).json();
  a.clock.advance(200);
  const authorization = `Basic ${Buffer.from(`sms:${a.key}`).toString('base64')}`;
  // A hand-written HTTP client (fetch with the same headers on every call) sends the type with no body.
  const res = await a.app.inject({
    method: 'DELETE',
    url: `/webhooks/${made.id}`,
    remoteAddress: '192.168.1.50',
    headers: { authorization, 'content-type': 'application/json' },
  });
  t.equal(res.statusCode, 204, res.body);
  t.same((await s.list()).json(), [], 'deleted');
});
