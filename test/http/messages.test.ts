// GET /api/messages, GET /api/messages/:id and GET /api/stats through the real hooks, and the
// id-prefix rule of every route that takes an id (the params schemas).
import t from 'tap';
import { recordingSender, testApp } from '../helpers/test-app.js';

t.test('history: newest first, pages, status filter, exact pagination', async (t) => {
  let n = 0;
  const { sender } = recordingSender(() =>
    n++ % 3 === 2 ? { ok: false, reason: 'timeout', detail: 'x' } : { ok: true },
  );
  const { send, get } = await testApp(t, { sender });
  const ids: string[] = [];
  for (let i = 0; i < 25; i++)
    ids.push((await send({ to: '12345', message: `m${i}` })).json().messageId ?? (await Promise.resolve('')));
  const first = (await get('/api/messages')).json();
  t.equal(first.success, true);
  t.same(first.pagination, { limit: 20, offset: 0, total: 25, hasNext: true });
  t.equal(first.data.length, 20);
  t.equal(first.data[0].body, 'm24', 'newest first');
  t.equal(first.data[19].body, 'm5');
  const second = (await get('/api/messages?limit=20&offset=20')).json();
  t.same(second.pagination, { limit: 20, offset: 20, total: 25, hasNext: false });
  t.same(
    second.data.map((m: { body: string }) => m.body),
    ['m4', 'm3', 'm2', 'm1', 'm0'],
  );
  const failed = (await get('/api/messages?status=failed&limit=100')).json();
  t.equal(failed.pagination.total, 8);
  t.equal(failed.data.length, 8, 'every failed one is on the page');
  t.ok(failed.data.every((m: { status: string; reason: string }) => m.status === 'failed' && m.reason === 'timeout'));
  const sent = (await get('/api/messages?status=sent&limit=5&offset=15')).json();
  t.same(sent.pagination, { limit: 5, offset: 15, total: 17, hasNext: false });
  t.equal(sent.data.length, 2);
  t.equal((await get('/api/messages?status=queued')).json().pagination.total, 0);
  const beyond = (await get('/api/messages?offset=100')).json();
  t.same(beyond.data, []);
  t.same(beyond.pagination, { limit: 20, offset: 100, total: 25, hasNext: false });
  const one = (await get(`/api/messages/${ids[0]}`)).json();
  t.equal(one.data.body, 'm0');
});

t.test('bad queries are 400 invalid_request naming the parameter', async (t) => {
  const { get } = await testApp(t);
  const bad = [
    'limit=0',
    'limit=101',
    'limit=abc',
    'limit=1.5',
    'limit=-1',
    'limit=',
    'offset=-1',
    'offset=x',
    'status=sending',
    'status=',
    'foo=bar',
    'limit=1&limit=2',
  ];
  for (const q of bad) {
    const res = await get(`/api/messages?${q}`);
    t.equal(res.statusCode, 400, q);
    t.equal(res.json().error.code, 'invalid_request', q);
    t.match(res.json().error.message, /^Invalid request: querystring/, q);
  }
  t.equal((await get('/api/messages?limit=100&offset=0&status=sent')).statusCode, 200);
  t.equal((await get('/api/messages?limit=1')).statusCode, 200);
});

t.test('an id without its prefix: 400 invalid_request naming params.id, on every route that takes one', async (t) => {
  const { app, auth, cancel } = await testApp(t);
  const invalid = (message: string) => ({
    success: false,
    smsSent: false,
    error: { code: 'invalid_request', message },
  });
  const cancelled = await cancel('12345');
  t.equal(cancelled.statusCode, 400, 'DELETE /api/messages/:id');
  t.same(cancelled.json(), invalid('Invalid request: params.id: must start with msg_'));
  const removed = await app.inject({
    method: 'DELETE',
    url: '/api/webhooks/12345',
    remoteAddress: '192.168.1.21',
    headers: auth,
  });
  t.equal(removed.statusCode, 400, 'DELETE /api/webhooks/:id');
  t.same(removed.json(), invalid('Invalid request: params.id: must start with wh_'));
});

t.test('one message: 400 without the msg_ prefix, 404 when unknown', async (t) => {
  const { get } = await testApp(t);
  const malformed = await get('/api/messages/12345');
  t.equal(malformed.statusCode, 400);
  t.same(malformed.json(), {
    success: false,
    smsSent: false,
    error: { code: 'invalid_request', message: 'Invalid request: params.id: must start with msg_' },
  });
  const unknown = await get('/api/messages/msg_00000000000000000000000000');
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'not_found');
  const badUrl = await get('/api/messages/msg_%ff');
  t.equal(badUrl.statusCode, 400, 'a URL that cannot be decoded');
  t.same(badUrl.json(), {
    success: false,
    smsSent: false,
    error: { code: 'invalid_request', message: 'Invalid request: the URL is not valid.' },
  });
  const long = await get(`/api/messages/msg_${'a'.repeat(200)}`);
  t.equal(long.statusCode, 404, 'a msg_ id longer than any the gateway makes is simply unknown');
  t.equal(long.json().error.code, 'not_found');
  const longOther = await get(`/api/messages/x${'a'.repeat(200)}`);
  t.equal(longOther.statusCode, 400);
  t.equal(longOther.json().error.message, 'Invalid request: a path segment is too long.');
});

t.test('stats: today, month and all time, in the named time zone', async (t) => {
  let fail = false;
  const { sender } = recordingSender(() => (fail ? { ok: false, reason: 'timeout', detail: 'x' } : { ok: true }));
  const { send, get, clock } = await testApp(t, {
    sender,
    timeZone: 'Pacific/Auckland',
    runtime: { mode: 'real', simulation: 'none' },
  });
  // 2026-11-21 12:00 UTC is 2026-11-22 01:00 in Auckland (UTC+13).
  await send({ to: '12345', message: 'a'.repeat(200) });
  fail = true;
  await send({ to: '12345', message: 'b' });
  const s = (await get('/api/stats')).json();
  t.equal(s.success, true);
  t.equal(s.data.timeZone, 'Pacific/Auckland');
  t.same(s.data.today, {
    date: '2026-11-22',
    accepted: 2,
    sent: 1,
    failed: 1,
    cancelled: 0,
    queued: 0,
    segments: 3,
    billedSegments: 2,
  });
  t.same(s.data.month, {
    month: '2026-11',
    accepted: 2,
    sent: 1,
    failed: 1,
    cancelled: 0,
    queued: 0,
    segments: 3,
    billedSegments: 2,
  });
  t.same(s.data.allTime, { accepted: 2, sent: 1, failed: 1, cancelled: 0, queued: 0, segments: 3, billedSegments: 2 });
  clock.advance(24 * 3600 * 1000);
  const next = (await get('/api/stats')).json();
  t.same(next.data.today, {
    date: '2026-11-23',
    accepted: 0,
    sent: 0,
    failed: 0,
    cancelled: 0,
    queued: 0,
    segments: 0,
    billedSegments: 0,
  });
  t.equal(next.data.month.accepted, 2);
});
