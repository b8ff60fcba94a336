// The HTTP calls of SMSGate's Home Assistant integrations and its Python and Go clients
// (test/fixtures/smsgate-client-requests.ts, each named after its source) replayed through the
// composed gateway exactly as they are sent, and what each client then reads checked: the log-in
// check, the id from Location, the message state the Go client validates, the ping's battery.
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { startReceiver } from '../fixtures/receiver.js';
import {
  clientGo,
  clientPy,
  goMessageStateProblem,
  holyhope,
  injectOf,
  smsgateHa,
  type ClientRequest,
} from '../fixtures/smsgate-client-requests.js';

type App = Awaited<ReturnType<typeof testApp>>;

/** Replays fixtures, each from a new local address (the per-caller limit is about 10 a second). */
function replayer(a: App) {
  let n = 0;
  return (r: ClientRequest, key = a.key) => a.app.inject(injectOf(r, key, `192.168.3.${(n++ % 250) + 1}`));
}

t.test('holyhope: the log-in check, a send, the webhook registrations it ensures and prunes', async (t) => {
  const a = await testApp(t);
  await a.gateway.sending.lane.stop();
  const send = replayer(a);
  const ok = await send(holyhope.checkAuth);
  t.equal(ok.statusCode, 200, 'GET / with Basic: 200, the integration is set up');
  t.match(ok.json(), { status: 'ok' });
  t.equal((await send(holyhope.checkAuth, `${a.key}x`)).statusCode, 401, 'a wrong password: 401 = invalid_auth');
  t.ok((await send(holyhope.send('+15550101001', 'Door open'))).statusCode < 400, 'a send is not an error');

  const url = 'http://192.168.1.10:8123/api/webhook/0123456789abcdef0123456789abcdef';
  for (const event of ['sms:received', 'system:ping']) {
    t.equal((await send(holyhope.ensureWebhook(event, url))).statusCode, 201, event);
  }
  const listed = (await send(holyhope.listWebhooks)).json() as { id: string; url: string; event: string }[];
  t.same(
    listed.map((w) => [w.id, w.url, w.event]),
    [
      ['android_sms_gateway-sms-received', url, 'sms:received'],
      ['android_sms_gateway-system-ping', url, 'system:ping'],
    ],
    'it finds its own registrations by id, url and event',
  );
  const gone = await send(holyhope.deleteWebhook('android_sms_gateway-system-ping'));
  t.equal(gone.statusCode, 204);
  t.ok((await send(holyhope.deleteWebhook('android_sms_gateway-system-ping'))).statusCode < 400, 'again: no error');
  t.equal(((await send(holyhope.listWebhooks)).json() as unknown[]).length, 1);
});

t.test("holyhope: a system:ping carries what it reads (health.status, battery:level's observedValue)", async (t) => {
  const a = await testApp(t, { clock: fakeClock(Date.now()) });
  const rx = await startReceiver(t);
  const send = replayer(a);
  a.gateway.webhooks.smsgate.ping.start();
  t.equal((await send(holyhope.ensureWebhook('system:ping', rx.url))).statusCode, 201);
  await a.clock.tick(15 * 60_000);
  await a.gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'one ping at the default 15 minutes');
  const ping = JSON.parse(rx.received[0]!.body) as { event: string; payload: { health: Record<string, unknown> } };
  t.equal(ping.event, 'system:ping');
  const health = ping.payload.health as { status: string; checks: Record<string, { observedValue: unknown }> };
  t.match(health.status, /^(pass|warn|fail)$/);
  t.type(
    health.checks['battery:level']?.observedValue,
    'number',
    "payload.health.checks['battery:level'].observedValue",
  );
});

t.test("SMSGateHA: GET /health, a send reading Location's last segment, the list and the message", async (t) => {
  const a = await testApp(t);
  await a.gateway.sending.lane.stop();
  const send = replayer(a);
  const health = await send(smsgateHa.health);
  t.equal(health.statusCode, 200);
  t.match(health.json(), { status: 'pass', checks: Object }, 'SMSGate health, JSON with a length');
  t.ok(Number(health.headers['content-length']) > 0);
  const sent = await send(smsgateHa.send('+15550101002', 'Washing machine done'));
  t.equal(sent.statusCode, 202, 'it expects 202');
  const id = String(sent.headers.location).split('/').at(-1)!;
  t.equal(id, sent.json().id, "Location's last segment is the message id");
  t.match((await send(smsgateHa.get(id))).json(), { id, state: 'Pending' });
  const list = (await send(smsgateHa.list())).json() as { id: string }[];
  t.same(
    list.map((m) => m.id),
    [id],
  );
  t.same(
    ((await send(smsgateHa.list('Pending'))).json() as { id: string }[]).map((m) => m.id),
    [id],
  );
  t.same((await send(smsgateHa.list('Sent'))).json(), [], 'by state');
});

t.test('the Python client: its body with withDeliveryReport and isEncrypted false, then get_state', async (t) => {
  const a = await testApp(t);
  await a.gateway.sending.lane.stop();
  const send = replayer(a);
  for (const withDeliveryReport of [true, false]) {
    const res = await send(clientPy.send('+15550101003', 'Parcel arrived', withDeliveryReport));
    t.equal(res.statusCode, 202, `withDeliveryReport ${withDeliveryReport}`);
    const state = res.json() as { id: string };
    t.match(state, { state: 'Pending', isEncrypted: false, recipients: [{ phoneNumber: '+15550101003' }] });
    t.match((await send(clientPy.getState(state.id))).json(), { id: state.id, state: 'Pending' });
  }
});

t.test("the Go client in Bearer mode: every answer it reads passes its MessageState's checks", async (t) => {
  const a = await testApp(t, { inbox: true });
  await a.gateway.sending.lane.stop();
  const send = replayer(a);
  const sent = await send(clientGo.send('+15550101004', 'Backup finished'));
  t.equal(sent.statusCode, 202);
  const id = (sent.json() as { id: string }).id;
  t.equal(goMessageStateProblem(sent.json()), undefined, 'the send answer');
  t.equal(goMessageStateProblem((await send(clientGo.call('GET', `/messages/${id}`))).json()), undefined);
  const list = await send(clientGo.call('GET', '/messages?limit=10&offset=0'));
  t.equal(list.headers['x-total-count'], '1', 'ListMessages reads X-Total-Count');
  for (const m of list.json() as object[]) t.equal(goMessageStateProblem(m), undefined, 'a listed message');
  const cancelled = await send(clientGo.call('DELETE', `/messages/${id}`));
  t.ok(cancelled.statusCode < 300, `CancelMessage: ${cancelled.statusCode}`);
  const after = (await send(clientGo.call('GET', `/messages/${id}`))).json() as { id: string; state: string };
  t.equal(after.state, 'Cancelled');
  t.equal(goMessageStateProblem(after), undefined, 'Cancelled is one of its states');

  const now = new Date(a.clock.now());
  const hourAgo = new Date(a.clock.now() - 3600_000);
  const rfc3339 = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  const inbox = await send(clientGo.call('GET', '/inbox?limit=10&offset=0'));
  t.equal(inbox.statusCode, 200);
  t.equal(inbox.headers['x-total-count'], '0', 'ListInboxMessages reads X-Total-Count');
  // CheckHealth in token mode: Bearer keeps the seed's /health (SMSGate's form is for Basic only,
  // so that /health stays what it always was for everything but SMSGate's Basic clients).
  const health = await send(clientGo.call('GET', '/health'));
  t.match(health.json(), { status: 'ok', version: String }, 'Bearer: the seed health, not SMSGate’s');
  t.notOk('checks' in health.json());
  for (const [method, url, body] of [
    ['GET', '/devices'],
    ['GET', '/settings'],
    ['GET', '/webhooks'],
    ['GET', `/logs?from=${rfc3339(hourAgo)}&to=${rfc3339(now)}`],
    ['POST', '/inbox/refresh', { since: hourAgo.toISOString(), until: now.toISOString() }],
  ] as const) {
    const res = await send(clientGo.call(method, url, body));
    t.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode}`);
  }
  const foreign = await send({ ...clientGo.send('+15550101005', 'x'), auth: 'bearer' }, 'not-the-key');
  t.equal(foreign.statusCode, 401, 'a wrong token: 401');
});
