// SMSGate's GET /devices (and /device), GET /inbox and POST /inbox/refresh on the composed
// gateway, with Basic <any user>:<key>: the phone as one device from kept facts, the stored
// received SMS in SMSGate's shape with X-Total-Count, a refresh that reads the phone's inbox
// now; every refusal in SMSGate's { message } shape.
import t from 'tap';
import { fakeInbox } from '../helpers/fake-inbox.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function smsgateApp(t: Parameters<typeof testApp>[0], opts: TestAppOptions = {}) {
  const app = await testApp(t, opts);
  const authorization = basic('sms', app.key);
  const call = (method: 'GET' | 'POST', url: string, payload?: unknown) =>
    app.app.inject({
      method,
      url,
      remoteAddress: '192.168.1.70',
      headers: payload === undefined ? { authorization } : { authorization, 'content-type': 'application/json' },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
  return { ...app, call };
}

t.test('GET /devices and /device: this phone as one device, the same id after a restart', async (t) => {
  const home = tempDir(t);
  const app = await smsgateApp(t, { home });
  const res = await app.call('GET', '/devices');
  t.equal(res.statusCode, 200);
  const devices = res.json();
  t.equal(devices.length, 1);
  const [device] = devices;
  t.match(device, { id: /^[A-Za-z0-9_-]{21}$/, name: 'sms-gateway' });
  t.equal(device.lastSeen, new Date(app.clock.now()).toISOString());
  t.equal(device.updatedAt, device.lastSeen);
  t.ok(Date.parse(device.createdAt) <= app.clock.now(), 'made before now');
  t.same(
    device.simCards,
    [
      { slotIndex: 0, simNumber: 1, phoneNumber: null, carrierName: null, iccid: null },
      { slotIndex: 1, simNumber: 2, phoneNumber: null, carrierName: null, iccid: null },
    ],
    'simulated mode: its two slots',
  );
  t.same((await app.call('GET', '/device')).json(), devices, 'the singular spelling');
  const again = await smsgateApp(t, { home });
  t.equal((await again.call('GET', '/devices')).json()[0].id, device.id, 'the same id on the same home');
  const other = await smsgateApp(t);
  t.not((await other.call('GET', '/devices')).json()[0].id, device.id, 'another gateway, another id');
  const refused = await app.app.inject({ url: '/devices', remoteAddress: '192.168.1.70' });
  t.equal(refused.statusCode, 401);
  t.match(refused.json(), { message: /Basic/ });
});

t.test("DELETE /devices/:id (the clients' deleteDevice): 404 in SMSGate's shape, the phone stays", async (t) => {
  const app = await smsgateApp(t);
  const [device] = (await app.call('GET', '/devices')).json();
  const remove = (url: string, authorization?: string) =>
    app.app.inject({
      method: 'DELETE',
      url,
      remoteAddress: '192.168.1.71',
      headers: authorization ? { authorization } : {},
    });
  for (const url of [`/devices/${device.id}`, '/devices/someone-else', `/device/${device.id}`]) {
    const res = await remove(url, basic('sms', app.key));
    t.equal(res.statusCode, 404, url);
    t.match(res.json(), { message: /one device/ });
  }
  const anonymous = await remove(`/devices/${device.id}`);
  t.equal(anonymous.statusCode, 401, 'without the key: 401, as on every SMSGate route');
  t.match(anonymous.json(), { message: /Basic/ });
  t.same((await app.call('GET', '/devices')).json(), [device], 'still the one device');
});

t.test("GET /inbox: received SMS in SMSGate's shape, newest first, X-Total-Count, from and to", async (t) => {
  const phone = fakeInbox();
  const app = await smsgateApp(t, { inbox: true, inboxList: phone.list, phoneNumber: '+15550001111' });
  await app.gateway.inbox.watcher.pollOnce(); // the baseline: what was there before is not announced
  const t0 = app.clock.now();
  phone.receive('+15551230001', 'first', t0);
  phone.receive('+15551230002', 'second', t0 + 60_000);
  app.clock.advance(120_000);
  await app.gateway.inbox.watcher.pollOnce();
  const res = await app.call('GET', '/inbox');
  t.equal(res.statusCode, 200);
  t.equal(res.headers['x-total-count'], '2');
  const [newest, oldest] = res.json();
  t.match(newest, {
    id: /^in_/,
    type: 'SMS',
    sender: '+15551230002',
    recipient: '+15550001111',
    simNumber: null,
    contentPreview: 'second',
    createdAt: new Date(t0 + 60_000).toISOString(),
    attachments: [],
  });
  t.equal(oldest.contentPreview, 'first');
  const paged = await app.call('GET', '/inbox?limit=1&offset=1');
  t.equal(paged.headers['x-total-count'], '2');
  t.same(
    paged.json().map((m: { contentPreview: string }) => m.contentPreview),
    ['first'],
  );
  const from = encodeURIComponent(new Date(t0 + 30_000).toISOString());
  const to = encodeURIComponent(new Date(t0 + 60_000).toISOString());
  const ranged = await app.call('GET', `/inbox?from=${from}&to=${to}`);
  t.equal(ranged.headers['x-total-count'], '1', 'to is inclusive');
  t.equal(ranged.json()[0].contentPreview, 'second');
  const mms = await app.call('GET', '/inbox?type=MMS');
  t.same(mms.json(), []);
  t.equal(mms.headers['x-total-count'], '0', 'SMS only here');
  const id = (await app.call('GET', '/devices')).json()[0].id as string;
  t.equal((await app.call('GET', `/inbox?deviceId=${id}`)).headers['x-total-count'], '2');
});

t.test('GET /inbox refuses bad parameters with 400 { message }, and is 503 while the inbox is off', async (t) => {
  const app = await smsgateApp(t, { inbox: true, inboxList: fakeInbox().list });
  for (const query of [
    'limit=0',
    'limit=501',
    'offset=-1',
    'type=FAX',
    'from=yesterday',
    'to=2026-13-01T00:00:00Z',
    'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
    'deviceId=another',
    'includeAttachments=maybe',
  ]) {
    const res = await app.call('GET', `/inbox?${query}`);
    t.equal(res.statusCode, 400, query);
    t.match(res.json(), { message: String }, query);
  }
  const off = await smsgateApp(t, { inbox: false });
  const res = await off.call('GET', '/inbox');
  t.equal(res.statusCode, 503);
  t.match(res.json(), { message: /inbox/i });
  t.equal(Object.keys(res.json()).length, 1, "SMSGate's shape: the message only");
});

t.test("POST /inbox/refresh: reads the phone's inbox now (202); 400 on a bad body; 503 while off", async (t) => {
  const phone = fakeInbox();
  const app = await smsgateApp(t, { inbox: true, inboxList: phone.list });
  await app.gateway.inbox.watcher.pollOnce();
  phone.receive('+15551230003', 'new one', app.clock.now());
  app.clock.advance(1000);
  const reads = phone.reads();
  const since = new Date(app.clock.now() - 3600_000).toISOString();
  const until = new Date(app.clock.now()).toISOString();
  const res = await app.call('POST', '/inbox/refresh', { since, until });
  t.equal(res.statusCode, 202);
  t.equal(res.body, '', 'no body, as SMSGate');
  // The read the refresh began stores the new SMS (no poll of the test's own).
  const stored = await waitFor('the refreshed SMS', async () => {
    const list = (await app.call('GET', '/inbox')).json() as { contentPreview: string }[];
    return list.length > 0 ? list : undefined;
  });
  t.equal(stored[0]!.contentPreview, 'new one');
  t.equal(phone.reads(), reads + 1, 'one read of the phone');
  for (const body of [
    {},
    { since },
    { since: until, until: since },
    { since, until, messageTypes: [] },
    { since, until, messageTypes: ['FAX'] },
    { since, until, triggerWebhooks: 'yes' },
  ]) {
    const bad = await app.call('POST', '/inbox/refresh', body);
    t.equal(bad.statusCode, 400, JSON.stringify(body));
    t.match(bad.json(), { message: String });
  }
  const off = await smsgateApp(t, { inbox: false });
  const refused = await off.call('POST', '/inbox/refresh', { since, until });
  t.equal(refused.statusCode, 503);
  t.match(refused.json(), { message: /inbox/i });
});
