// The webhook JSON is built where it is delivered: the outbox keeps each event typed (its record and
// the ids fixed when it happened, no wire envelope), every attempt renders the body from it, the
// same bytes on every retry (also after the device id and SMSGate's message ids changed), and a
// renderer that changed after the event was stored shows in what is posted. An SMSGate envelope
// a 0.5 home stored as its wire body, before the outbox kept typed events, is posted as stored.
import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t, { type Test } from 'tap';
import { createWebhookDelivery } from '../../src/events/delivery.js';
import { postSigned } from '../../src/events/post-signed.js';
import { wireBody } from '../../src/events/wire-bodies.js';
import type { Head } from '../../src/store/outbox.js';
import { migrate } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';
import { startReceiver } from '../fixtures/receiver.js';

type App = Awaited<ReturnType<typeof testApp>>;

/** Registers an SMSGate webhook through its route (Basic sms:<key>). */
async function registerSmsgate(a: App, body: { id: string; url: string; event: string }) {
  a.clock.advance(200); // under the per-caller rate limit
  const res = await a.app.inject({
    method: 'POST',
    url: '/webhooks',
    remoteAddress: '192.168.1.50',
    headers: {
      authorization: `Basic ${Buffer.from(`sms:${a.key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify(body),
  });
  return res.statusCode;
}

const WIRE_KEYS = ['id', 'type', 'webhookId', 'event', 'payload'];

t.test('native: the row keeps the typed record; each retry posts the same bytes, the native shape', async (t) => {
  let n = 0;
  const rx = await startReceiver(t, () => (n++ < 2 ? 500 : 200));
  const a = await testApp(t, { webhookUrls: [rx.url], clock: fakeClock(Date.now()), random: () => 0.5 });
  const sent = (await a.send({ to: '+15551230001', message: 'typed' })).json();
  const [head] = a.gateway.webhooks.outbox.heads();
  t.equal(head!.wire, null, 'no wire body stored');
  const record = JSON.parse(head!.record!) as Record<string, unknown>;
  t.same(Object.keys(record), ['createdAt', 'data'], 'the typed record: when, and the message record');
  t.match(record.data, { id: sent.messageId, body: 'typed', status: 'sent' });
  for (let i = 0; i < 3; i++) {
    await a.gateway.webhooks.delivery.runDue();
    a.clock.advance(60_000);
  }
  t.equal(rx.received.length, 3, 'two failed attempts, then delivered');
  const bodies = new Set(rx.received.map((r) => r.body));
  t.equal(bodies.size, 1, 'the same bytes on every attempt');
  const wire = JSON.parse(rx.received[0]!.body) as Record<string, unknown>;
  t.same(Object.keys(wire), ['id', 'type', 'createdAt', 'data'], 'the native event, in its order');
  t.equal(wire.id, head!.eventId);
  t.equal(rx.received[0]!.body, JSON.stringify({ id: head!.eventId, type: 'sms.sent', ...record }));
});

t.test('SMSGate: the row keeps no envelope; retries post the bytes fixed when the event happened', async (t) => {
  let n = 0;
  const rx = await startReceiver(t, () => (n++ < 2 ? 500 : 200));
  const a = await testApp(t, { clock: fakeClock(Date.now()), random: () => 0.5, phoneNumber: '+15559990000' });
  t.equal(await registerSmsgate(a, { id: 'ha', url: rx.url, event: 'sms:sent' }), 201);
  a.gateway.webhooks.reportSmsgate({ deviceId: () => 'device-then', smsgateIdOf: () => 'sg-then' });
  t.equal((await a.send({ to: '+15551230001', message: 'hi' })).statusCode, 200);
  const [head] = a.gateway.webhooks.outbox.heads();
  t.equal(head!.wire, null, 'no wire body stored');
  const record = JSON.parse(head!.record!) as Record<string, unknown>;
  for (const k of WIRE_KEYS) t.notOk(k in record, `no envelope field ${k} in the stored record`);
  t.match(record, { deviceId: 'device-then', phoneNumber: '+15559990000', messageId: 'sg-then' });
  t.match(record.message, { to: '+15551230001', body: 'hi', status: 'sent' }, 'the message record');

  await a.gateway.webhooks.delivery.runDue();
  a.gateway.webhooks.reportSmsgate({ deviceId: () => 'device-now', smsgateIdOf: () => 'sg-now' });
  for (let i = 0; i < 2; i++) {
    a.clock.advance(60_000);
    await a.gateway.webhooks.delivery.runDue();
  }
  t.equal(rx.received.length, 3, 'two failed attempts, then delivered');
  t.equal(new Set(rx.received.map((r) => r.body)).size, 1, 'the same bytes on every attempt');
  const envelope = JSON.parse(rx.received[2]!.body) as Record<string, unknown>;
  t.same(Object.keys(envelope), ['id', 'webhookId', 'event', 'deviceId', 'payload'], "SMSGate's envelope");
  t.match(envelope, { id: head!.eventId, webhookId: 'ha', event: 'sms:sent', deviceId: 'device-then' });
  t.match(envelope.payload, { messageId: 'sg-then', sender: '+15559990000', recipient: '+15551230001' });
  t.same(
    Object.keys(envelope.payload as object),
    ['messageId', 'sender', 'recipient', 'simNumber', 'phoneNumber', 'partsCount', 'sentAt'],
    "SMSGate's payload fields, in the order sent before",
  );
});

/** A second delivery over the app's outbox, rendering with `render` (the app's own delivery stopped first). */
function deliveryRenderingWith(t: Test, a: App, render: (h: Head) => string) {
  const later = createWebhookDelivery({
    store: a.gateway.webhooks.outbox,
    clock: a.clock,
    secret: () => 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    userAgent: 'sms-gateway/test',
    post: postSigned,
    render,
  });
  t.teardown(() => later.stop());
  return later;
}

t.test('a renderer changed after the event was stored shows in what is posted', async (t) => {
  const rx = await startReceiver(t);
  const a = await testApp(t, { webhookUrls: [rx.url], clock: fakeClock(Date.now()) });
  await a.gateway.webhooks.delivery.stop(); // the event waits in the outbox
  await a.send({ to: '+15551230001', message: 'stored before' });
  t.equal(rx.received.length, 0);
  const later = deliveryRenderingWith(t, a, (h) =>
    JSON.stringify({ ...(JSON.parse(wireBody(h)) as object), renderedBy: 'the new renderer' }),
  );
  t.equal(await later.runDue(), 1);
  const got = JSON.parse(rx.received[0]!.body) as { type: string; data: { body: string }; renderedBy: string };
  t.equal(got.renderedBy, 'the new renderer', 'the body is built at delivery');
  t.match(got, { type: 'sms.sent', data: { body: 'stored before' } }, 'from the stored typed event');
});

t.test('an event that cannot be rendered is dropped for its target alone; the next one goes', async (t) => {
  const rx = await startReceiver(t);
  const a = await testApp(t, { webhookUrls: [rx.url], clock: fakeClock(Date.now()) });
  await a.gateway.webhooks.delivery.stop(); // both events wait in the outbox
  await a.send({ to: '+15551230001', message: 'damaged' });
  await a.send({ to: '+15551230002', message: 'readable' });
  const later = deliveryRenderingWith(t, a, (h) => {
    const body = wireBody(h);
    if (body.includes('damaged')) throw new SyntaxError('Unexpected end of JSON input');
    return body;
  });
  t.equal(await later.runDue(), 2, 'both attempts ended in one round');
  t.equal(rx.received.length, 1, 'only the readable one was posted');
  t.match(JSON.parse(rx.received[0]!.body), { data: { body: 'readable' } });
  t.equal(a.gateway.webhooks.outbox.heads().length, 0, 'nothing left to retry: the damaged one is not retried');
  t.notOk(later.hasTimer(), 'no retry timer for it');
});

/** A home whose schema stops before the outbox kept typed events, with what that code stored for one registration. */
function homeWithWireEnvelope(t: Test, url: string, now: number) {
  const home = tempDir(t);
  const typed = MIGRATIONS.findIndex((m) => m.includes('ADD COLUMN record'));
  const db = new Database(join(home, 'gateway.db'));
  migrate(db, MIGRATIONS.slice(0, typed));
  const body = JSON.stringify({
    id: 'evt_from_before',
    webhookId: 'ha',
    event: 'sms:received',
    deviceId: 'device-before',
    payload: { messageId: 'in_1', sender: '+15551230009', recipient: null, simNumber: null, message: 'old' },
  });
  db.prepare(`INSERT INTO smsgate_webhooks (id, url, event, created_at) VALUES ('ha', ?, 'sms:received', ?)`).run(
    url,
    now,
  );
  db.prepare(
    `INSERT INTO webhook_events (id, type, created_at, body) VALUES ('evt_from_before', 'sms:received', ?, ?)`,
  ).run(now, body);
  db.prepare(
    `INSERT INTO webhook_deliveries (event_id, target, next_attempt_at) VALUES ('evt_from_before', 'smsgate:ha', ?)`,
  ).run(now);
  db.close();
  return { home, body };
}

t.test("a 0.5 home's SMSGate envelope stored as its wire body is posted as stored, signed SMSGate's way", async (t) => {
  const rx = await startReceiver(t);
  const now = Date.now();
  const { home, body } = homeWithWireEnvelope(t, rx.url, now - 60_000);
  const a = await testApp(t, { home, clock: fakeClock(now) });
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1);
  t.equal(rx.received[0]!.body, body, 'the stored bytes');
  const ts = String(rx.received[0]!.headers['x-timestamp']);
  const key = a.gateway.webhooks.signingKey();
  t.equal(
    rx.received[0]!.headers['x-signature'],
    createHmac('sha256', key)
      .update(body + ts)
      .digest('hex'),
  );
  t.equal(a.gateway.webhooks.outbox.heads().length, 0, 'delivered');
});
