// GET /messages (SMSGate's list) on the composed gateway: newest first, X-Total-Count, limit and
// offset, the state filter (worked out as the message state is), from and to, includeContent,
// refusals in SMSGate's shape, and only messages sent through SMSGate's routes.
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { smsgateClient } from '../helpers/smsgate-client.js';

t.test('the list: newest first, X-Total-Count, limit, offset, state, from, to, includeContent', async (t) => {
  const clock = fakeClock();
  const app = await testApp(t, { clock });
  await app.gateway.sending.lane.stop(); // all stay Pending unless cancelled
  const sg = smsgateClient(app);
  const start = clock.now();
  for (const [i, id] of ['m1', 'm2', 'm3', 'm4'].entries()) {
    const to = [`+155501300${i}1`, `+155501300${i}2`];
    t.equal((await sg.post('/messages', { id, message: `text ${id}`, phoneNumbers: to })).statusCode, 202);
    clock.advance(60_000);
  }
  await app.queue({ to: '+15550130099', message: 'native, not listed' });
  t.equal((await sg.delete('/messages/m2')).statusCode, 200);

  const all = await sg.get('/messages');
  t.equal(all.statusCode, 200);
  t.equal(all.headers['x-total-count'], '4');
  const list = all.json() as { id: string; state: string; textMessage?: unknown; recipients: unknown[] }[];
  t.same(
    list.map((m) => [m.id, m.state]),
    [
      ['m4', 'Pending'],
      ['m3', 'Pending'],
      ['m2', 'Cancelled'],
      ['m1', 'Pending'],
    ],
  );
  t.ok(
    list.every((m) => m.textMessage === undefined && m.recipients.length === 2),
    'no text without includeContent',
  );

  const page = await sg.get('/messages?limit=2&offset=1');
  t.equal(page.headers['x-total-count'], '4', 'the total of all that match');
  t.same(
    page.json().map((m: { id: string }) => m.id),
    ['m3', 'm2'],
  );
  const cancelled = await sg.get('/messages?state=Cancelled');
  t.equal(cancelled.headers['x-total-count'], '1');
  t.same(
    cancelled.json().map((m: { id: string }) => m.id),
    ['m2'],
  );
  const pending = await sg.get('/messages?state=Pending&limit=1');
  t.equal(pending.headers['x-total-count'], '3');
  t.same(
    pending.json().map((m: { id: string }) => m.id),
    ['m4'],
  );
  for (const never of ['Delivered', 'Cancelling']) {
    const none = await sg.get(`/messages?state=${never}`);
    t.equal(none.headers['x-total-count'], '0', never);
    t.same(none.json(), []);
  }
  const from = new Date(start + 60_000).toISOString();
  const to = new Date(start + 120_000).toISOString();
  const range = await sg.get(`/messages?from=${from}&to=${to}&includeContent=true`);
  t.equal(range.headers['x-total-count'], '2', 'from and to, both inclusive');
  t.same(
    range.json().map((m: { id: string; textMessage: unknown }) => [m.id, m.textMessage]),
    [
      ['m3', { text: 'text m3' }],
      ['m2', { text: 'text m2' }],
    ],
  );
  const mine = await sg.get(`/messages?deviceId=${sg.deviceId()}&limit=1`);
  t.equal(mine.statusCode, 200, "this phone's device id is taken");
});

t.test('refusals: 400 { message } for a bad parameter, from after to, another device', async (t) => {
  const app = await testApp(t);
  const sg = smsgateClient(app);
  for (const query of [
    'state=Sending',
    'limit=0',
    'limit=1001',
    'offset=-1',
    'from=yesterday',
    'includeContent=yes',
    'from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
    'deviceId=another',
  ]) {
    const res = await sg.get(`/messages?${query}`);
    t.equal(res.statusCode, 400, query);
    t.same(Object.keys(res.json()), ['message'], query);
  }
  const unauthorized = await app.app.inject({ url: '/messages', remoteAddress: '192.168.1.70' });
  t.equal(unauthorized.statusCode, 401);
  t.equal(unauthorized.headers['www-authenticate'], 'Basic realm="sms-gateway"');
});

t.test('the device id is one for this phone, kept across a restart', async (t) => {
  const first = await testApp(t);
  const sg = smsgateClient(first);
  const res = await sg.post('/messages', { message: 'x', phoneNumbers: ['+15550130001'] });
  const id = res.json().deviceId as string;
  t.match(id, /^[A-Za-z0-9_-]{21}$/);
  t.equal((await sg.get('/messages')).json()[0].deviceId, id);
  const again = await testApp(t, { home: first.home });
  t.equal(smsgateClient(again).deviceId(), id, 'the same after a restart');
});

t.test('a message whose records left the history is gone: 404, not listed, its id free again', async (t) => {
  const clock = fakeClock();
  const app = await testApp(t, { clock, queueRate: 60 });
  const sg = smsgateClient(app);
  t.equal((await sg.post('/messages', { id: 'old', message: 'x', phoneNumbers: ['+15550139999'] })).statusCode, 202);
  await app.gateway.sending.lane.runDue();
  t.equal((await sg.get('/messages/old')).json().state, 'Sent');
  // 1000 more settled messages: the history keeps the newest 1000, so the first record goes.
  for (let r = 0; r < 10; r++) {
    const to = Array.from({ length: 100 }, (_, i) => `+1555014${String(r * 100 + i).padStart(4, '0')}`);
    t.equal((await app.queue({ to, message: 'filler' }, {}, `192.168.1.${150 + r}`)).statusCode, 202);
  }
  for (let s = 0; s < 1100 && app.gateway.sending.queue.summary().count > 0; s++) {
    clock.advance(1000);
    await app.gateway.sending.lane.runDue();
  }
  t.equal(app.gateway.sending.queue.summary().count, 0, 'all 1000 settled');
  t.equal((await sg.get('/messages/old')).statusCode, 404);
  t.equal((await sg.get('/messages')).headers['x-total-count'], '0');
  t.equal((await sg.post('/messages', { id: 'old', message: 'y', phoneNumbers: ['+15550139999'] })).statusCode, 202);
});
