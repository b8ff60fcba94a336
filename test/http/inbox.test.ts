// GET /api/inbox on the real app, fed by the inbox watcher reading a fake termux-sms-list:
// fields, order, paging, the from filter, bad queries, and the 503 while the watcher is off.
import t, { type Test } from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

interface RawSms {
  _id: number;
  threadid: number;
  type: string;
  read: boolean;
  address: string;
  sender?: string;
  received: string;
  body: string;
}

const sms = (id: number, received: string, body: string, address = '+4915112345678', sender?: string): RawSms => ({
  _id: id,
  threadid: 3,
  type: 'inbox',
  read: false,
  address,
  ...(sender === undefined ? {} : { sender }),
  received,
  body,
});

const OLD = [sms(10, '2026-11-20 08:00:00', 'before the gateway listened')];
const NEW = [
  sms(11, '2026-11-21 12:00:01', 'first', '+4915112345678', 'Anna'),
  sms(12, '2026-11-21 12:00:02', 'second', '+15551230001'),
  sms(13, '2026-11-21 12:00:03', 'third', '+4915112345678', 'Anna'),
  sms(14, '2026-11-21 12:00:04', 'Your parcel is on its way', 'DHL'),
];

/** An app whose watcher reads the fake inbox (UTC); OLD is the baseline, NEW arrives after it. */
async function withInbox(t: Test, opts: { inbox?: boolean; webhookUrls?: string[] } = { inbox: true }) {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const a = await testApp(t, { ...opts, deviceEnv: fake.env });
  fake.output('termux-sms-list', JSON.stringify(OLD));
  await a.gateway.inbox.watcher.pollOnce();
  fake.output('termux-sms-list', JSON.stringify([...OLD, ...NEW]));
  await a.gateway.inbox.watcher.pollOnce();
  return a;
}

t.test('fields, newest first, only what arrived after the watcher started', async (t) => {
  const a = await withInbox(t);
  const res = await a.get('/api/inbox');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.success, true);
  t.same(
    body.data.map((m: { body: string }) => m.body),
    ['Your parcel is on its way', 'third', 'second', 'first'],
    'newest first; the old message is not there',
  );
  t.match(body.data[3], {
    id: /^in_[0-9a-z]{26}$/,
    from: '+4915112345678',
    contact: 'Anna',
    body: 'first',
    receivedAt: '2026-11-21T12:00:01.000Z',
    simSlot: null,
  });
  t.same(Object.keys(body.data[3]).sort(), [
    'body',
    'contact',
    'from',
    'id',
    'inReplyTo',
    'keyword',
    'receivedAt',
    'simSlot',
  ]);
  t.equal(body.data[2].contact, null, 'no contact matched');
  t.same(body.pagination, { limit: 20, offset: 0, total: 4, hasNext: false });
  t.equal(new Set(body.data.map((m: { id: string }) => m.id)).size, 4, 'ids are distinct');
});

t.test('each received SMS is stored once, in the same transaction as its event', async (t) => {
  const a = await withInbox(t, { webhookUrls: ['http://127.0.0.1:9/hook'] });
  await a.gateway.inbox.watcher.pollOnce(); // the same list again: nothing new
  t.equal((await a.get('/api/inbox')).json().pagination.total, 4);
  const events = a.db.prepare(`SELECT COUNT(*) AS n FROM webhook_events WHERE type = 'sms.received'`).get() as {
    n: number;
  };
  t.equal(events.n, 4, 'one event per stored message');
});

t.test('paging: limit, offset, hasNext', async (t) => {
  const a = await withInbox(t);
  const p1 = (await a.get('/api/inbox?limit=3')).json();
  t.same(
    p1.data.map((m: { body: string }) => m.body),
    ['Your parcel is on its way', 'third', 'second'],
  );
  t.same(p1.pagination, { limit: 3, offset: 0, total: 4, hasNext: true });
  const p2 = (await a.get('/api/inbox?limit=3&offset=3')).json();
  t.same(
    p2.data.map((m: { body: string }) => m.body),
    ['first'],
  );
  t.same(p2.pagination, { limit: 3, offset: 3, total: 4, hasNext: false });
  const past = (await a.get('/api/inbox?offset=50')).json();
  t.same(past.data, []);
  t.same(past.pagination, { limit: 20, offset: 50, total: 4, hasNext: false });
});

t.test('from: the stored sender, ignoring spaces, punctuation, a leading + and letter case', async (t) => {
  const a = await withInbox(t);
  const bodies = async (q: string) => {
    const r = await a.get(`/api/inbox?from=${q}`);
    t.equal(r.statusCode, 200, q);
    return r.json().data.map((m: { body: string }) => m.body);
  };
  t.same(await bodies('%2B4915112345678'), ['third', 'first']);
  t.same(await bodies('+4915112345678'), ['third', 'first'], 'an unencoded + (a space once decoded) still matches');
  t.same(await bodies('4915112345678'), ['third', 'first']);
  t.same(await bodies('%2B49%20151%20123-456.78'), ['third', 'first']);
  t.same(await bodies('015112345678'), [], 'the national form is another sender');
  t.same(await bodies('dhl'), ['Your parcel is on its way']);
  t.same(await bodies('%2B15551230001'), ['second']);
  const page = (await a.get('/api/inbox?from=%2B4915112345678&limit=1')).json();
  t.same(page.pagination, { limit: 1, offset: 0, total: 2, hasNext: true }, 'total counts the filtered messages');
});

t.test('bad queries are 400 invalid_request naming the parameter', async (t) => {
  const a = await withInbox(t);
  for (const q of [
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'offset=-1',
    'offset=x',
    'from=',
    'from=%20',
    `from=${'1'.repeat(65)}`,
    'status=sent',
    'limit=1&limit=2',
  ]) {
    const res = await a.get(`/api/inbox?${q}`);
    t.equal(res.statusCode, 400, q);
    t.equal(res.json().error.code, 'invalid_request', q);
    t.match(res.json().error.message, /^Invalid request: querystring/, q);
  }
});

t.test('needs the key', async (t) => {
  const a = await withInbox(t);
  const res = await a.app.inject({ url: '/api/inbox', remoteAddress: '192.168.1.21' });
  t.equal(res.statusCode, 401);
});

t.test('the watcher off: 503 inbox_disabled saying how to switch it on', async (t) => {
  const a = await testApp(t);
  t.equal(a.gateway.inbox.enabled(), false);
  const res = await a.get('/api/inbox');
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'inbox_disabled');
  t.match(res.json().error.message, /SMS_GATEWAY_INBOX=true/);
  t.match(res.json().error.message, /POST \/api\/webhooks/);
  t.equal(
    (await a.get('/api/diagnostics')).json().data.checks.webhooks.value.inbox,
    null,
    'diagnostics: no inbox part',
  );
});

t.test('an env webhook target or one registered over the API switches the watcher on', async (t) => {
  const env = await testApp(t, { webhookUrls: ['http://127.0.0.1:9/hook'] });
  t.equal((await env.get('/api/inbox')).statusCode, 200);

  const api = await testApp(t);
  t.equal((await api.get('/api/inbox')).statusCode, 503);
  const added = await api.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    remoteAddress: '192.168.1.21',
    headers: { ...api.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ url: 'http://127.0.0.1:9/api-hook' }),
  });
  t.equal(added.statusCode, 201);
  t.equal((await api.get('/api/inbox')).statusCode, 200, 'no restart needed');
  const removed = await api.app.inject({
    method: 'DELETE',
    url: `/api/webhooks/${added.json().data.id}`,
    remoteAddress: '192.168.1.21',
    headers: api.auth,
  });
  t.equal(removed.statusCode, 204);
  t.equal((await api.get('/api/inbox')).statusCode, 503, 'off again with the last target');
});

t.test('a watcher that was off starts afresh: what arrived while nobody listened is not announced', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const home = tempDir(t);
  await t.test('a run with a listener', async (t) => {
    const a = await testApp(t, { home, inbox: true, deviceEnv: fake.env });
    fake.output('termux-sms-list', JSON.stringify(OLD));
    await a.gateway.inbox.watcher.pollOnce();
    fake.output('termux-sms-list', JSON.stringify([...OLD, NEW[0]]));
    await a.gateway.inbox.watcher.pollOnce();
    t.equal((await a.get('/api/inbox')).json().pagination.total, 1);
  });
  await t.test('a run without one, then a target registered over the API', async (t) => {
    // An hour later: the messages of NEW[1..2] arrived while the watcher was off.
    const a = await testApp(t, { home, deviceEnv: fake.env, clock: fakeClock(Date.UTC(2026, 10, 21, 13, 0, 0)) });
    fake.output('termux-sms-list', JSON.stringify([...OLD, ...NEW.slice(0, 3)]));
    a.gateway.startBackground();
    t.equal(a.gateway.inbox.watcher.running(), false);
    const added = await a.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      remoteAddress: '192.168.1.21',
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }),
    });
    t.equal(added.statusCode, 201);
    t.equal(a.gateway.inbox.watcher.running(), true, 'started without a restart');
    await a.gateway.inbox.watcher.pollOnce(); // joins or follows the first poll: a new baseline
    fake.output('termux-sms-list', JSON.stringify([...OLD, ...NEW]));
    await a.gateway.inbox.watcher.pollOnce();
    const page = (await a.get('/api/inbox')).json();
    t.same(
      page.data.map((m: { body: string }) => m.body),
      ['Your parcel is on its way', 'first'],
      'only the one stored before and the one after',
    );
    const removed = await a.app.inject({
      method: 'DELETE',
      url: `/api/webhooks/${added.json().data.id}`,
      remoteAddress: '192.168.1.21',
      headers: a.auth,
    });
    t.equal(removed.statusCode, 204);
    t.equal(a.gateway.inbox.watcher.running(), false, 'stopped with the last listener');

    // Off again at run time: what arrives now is not announced when a listener comes back.
    fake.output('termux-sms-list', JSON.stringify([...OLD, ...NEW, sms(15, '2026-11-21 12:30:00', 'while off again')]));
    const again = await a.app.inject({
      method: 'POST',
      url: '/api/webhooks',
      remoteAddress: '192.168.1.21',
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: JSON.stringify({ url: 'http://127.0.0.1:9/hook2' }),
    });
    t.equal(again.statusCode, 201);
    await a.gateway.inbox.watcher.pollOnce();
    fake.output(
      'termux-sms-list',
      JSON.stringify([
        ...OLD,
        ...NEW,
        sms(15, '2026-11-21 12:30:00', 'while off again'),
        sms(16, '2026-11-21 12:59:00', 'back on'),
      ]),
    );
    await a.gateway.inbox.watcher.pollOnce();
    t.same(
      (await a.get('/api/inbox')).json().data.map((m: { body: string }) => m.body),
      ['back on', 'Your parcel is on its way', 'first'],
    );
  });
});

t.test('newest first by the time received, whatever order the _ids come in', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const a = await testApp(t, { inbox: true, deviceEnv: fake.env });
  fake.output('termux-sms-list', JSON.stringify(OLD));
  await a.gateway.inbox.watcher.pollOnce();
  // A backlog read at once: _id 120 arrived before _id 105 (ids reused after a deletion).
  fake.output(
    'termux-sms-list',
    JSON.stringify([...OLD, sms(120, '2026-11-21 14:30:00', 'earlier'), sms(105, '2026-11-21 15:00:00', 'later')]),
  );
  await a.gateway.inbox.watcher.pollOnce();
  t.same(
    (await a.get('/api/inbox')).json().data.map((m: { body: string }) => m.body),
    ['later', 'earlier'],
  );
});

t.test('an SMS that arrives between switching the watcher on and its first read is announced', async (t) => {
  const clock = fakeClock(Date.UTC(2026, 10, 21, 12, 0, 0));
  const entry = (id: number, received: string, body: string) => ({
    id,
    threadId: 3,
    type: 'inbox',
    address: '+15551230001',
    sender: null,
    received,
    body,
    read: false,
  });
  const a = await testApp(t, {
    clock,
    inbox: true,
    // The first read takes 10 s (a slow Termux:API); the SMS came 5 s after the switch-on.
    inboxList: async () => {
      clock.advance(10_000);
      return {
        ok: true as const,
        entries: [
          entry(7, '2026-11-21 11:00:00', 'before: never announced'),
          entry(8, '2026-11-21 12:00:05', 'just after'),
        ],
      };
    },
  });
  a.gateway.inbox.start();
  await a.gateway.inbox.watcher.pollOnce();
  await a.gateway.inbox.stop();
  t.same(
    (await a.get('/api/inbox')).json().data.map((m: { body: string }) => m.body),
    ['just after'],
  );
});
