// POST /api/sms/send through the real hooks, with a recording sender and a fake clock.
import t from 'tap';
import { testApp, recordingSender } from '../helpers/test-app.js';
import { MESSAGE_ID_PATTERN } from '../../src/core/ids.js';

const to = '+1 555 123 4567';

t.test('success: 200 send result, record sent, one hand-off with the normalized number', async (t) => {
  const { send, get, handoffs } = await testApp(t);
  const res = await send({ to, message: 'Hello' });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.match(body.messageId, MESSAGE_ID_PATTERN);
  t.same(body, {
    success: true,
    mode: 'simulated',
    smsSent: true,
    messageId: body.messageId,
    status: 'queued',
    segments: 1,
    simSlot: 1,
    encoding: 'gsm7',
  });
  t.same(handoffs, [{ number: '+15551234567', text: 'Hello', simSlot: 1 }]);
  const rec = (await get(`/api/messages/${body.messageId}`)).json();
  t.equal(rec.success, true);
  t.same(
    Object.keys(rec.data).sort(),
    [
      'billedSegments',
      'body',
      'createdAt',
      'encoding',
      'id',
      'reason',
      'segments',
      'simSlot',
      'sourceIp',
      'origin',
      'status',
      'to',
      'updatedAt',
      'sendAt',
      'expiresAt',
      'tags',
    ].sort(),
  );
  t.equal(rec.data.status, 'sent');
  t.equal(rec.data.reason, null);
  t.equal(rec.data.to, to, 'stored exactly as sent');
  t.equal(rec.data.sourceIp, '192.168.1.20');
  t.equal(rec.data.billedSegments, 0, 'simulated mode bills nothing');
  t.match(rec.data.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

t.test('real mode bills the segments handed off', async (t) => {
  const { send, get } = await testApp(t, { runtime: { mode: 'real', simulation: 'none' } });
  const res = await send({ to: '12345', message: 'x'.repeat(161) });
  t.equal(res.json().mode, 'real');
  const rec = (await get(`/api/messages/${res.json().messageId}`)).json().data;
  t.equal(rec.billedSegments, 2);
});

t.test('multipart adds a warning; UCS-2 is reported', async (t) => {
  const { send } = await testApp(t);
  const long = await send({ to, message: 'a'.repeat(307) });
  t.equal(long.json().segments, 3);
  t.equal(long.json().warning, 'Message is 3 segments long (gsm7); it is sent as a multipart SMS and billed as 3.');
  const cyr = await send({ to, message: 'Привет' });
  t.equal(cyr.json().encoding, 'ucs2');
  t.notOk('warning' in cyr.json());
});

t.test('simSlot: given, default, out of range', async (t) => {
  const { send, handoffs } = await testApp(t, { simCount: 2, defaultSim: 2 });
  t.equal((await send({ to, message: 'a' })).json().simSlot, 2, 'default from SMS_GATEWAY_DEFAULT_SIM');
  t.equal((await send({ to, message: 'b', simSlot: 1 })).json().simSlot, 1);
  const bad = await send({ to, message: 'c', simSlot: 3 });
  t.equal(bad.statusCode, 400);
  t.same(bad.json().error, {
    code: 'invalid_request',
    message: 'Invalid request: simSlot 3 does not exist; this phone reports 2 SIM slots.',
  });
  t.equal((await send({ to, message: 'd', simSlot: 0 })).statusCode, 400);
  t.equal((await send({ to, message: 'd', simSlot: 1.5 })).statusCode, 400);
  t.equal((await send({ to, message: 'd', simSlot: '1' })).statusCode, 400);
  t.same(
    handoffs.map((h) => h.simSlot),
    [2, 1],
  );
});

t.test('a default SIM the phone does not have is refused with the variable named', async (t) => {
  const { send } = await testApp(t, { simCount: 1, defaultSim: 2 });
  const res = await send({ to, message: 'x' });
  t.equal(res.statusCode, 400);
  t.match(res.json().error.message, /default SIM slot 2 \(SMS_GATEWAY_DEFAULT_SIM\).*1 SIM slot\./);
});

t.test('every rejected request leaves the sender uninvoked and nothing recorded', async (t) => {
  const { send, get, handoffs, app, auth } = await testApp(t);
  const cases: [string, unknown, number, string][] = [
    ['empty message', { to, message: '' }, 400, 'invalid_request'],
    ['whitespace message', { to, message: ' \n\t ' }, 400, 'invalid_request'],
    ['missing to', { message: 'x' }, 400, 'invalid_request'],
    ['missing message', { to }, 400, 'invalid_request'],
    ['number to', { to: 5551234567, message: 'x' }, 400, 'invalid_request'],
    ['null message', { to, message: null }, 400, 'invalid_request'],
    ['array body', [1, 2], 400, 'invalid_request'],
    ['string body', '"hello"', 400, 'invalid_request'],
    ['unknown field', { to, message: 'x', sim: 2 }, 400, 'invalid_request'],
    ['letters in to', { to: 'alice', message: 'x' }, 400, 'invalid_request'],
    ['two numbers', { to: '123456,654321', message: 'x' }, 400, 'invalid_request'],
    ['too long number', { to: '1234567890123456', message: 'x' }, 400, 'invalid_request'],
    ['lone surrogate', { to, message: 'a\ud800b' }, 400, 'invalid_request'],
    ['61 segments', { to, message: 'a'.repeat(153 * 61) }, 400, 'message_too_long'],
    ['bad JSON', '{"to":', 400, 'invalid_request'],
    ['__proto__ poisoning', '{"to":"12345","message":"x","__proto__":{"a":1}}', 400, 'invalid_request'],
  ];
  for (const [name, body, status, code] of cases) {
    const res = await send(body);
    t.equal(res.statusCode, status, name);
    t.equal(res.json().success, false, name);
    t.equal(res.json().smsSent, false, name);
    t.equal(res.json().error.code, code, name);
    t.type(res.json().error.message, 'string', name);
  }
  const tooLarge = await send({ to, message: 'x'.repeat(17_000) });
  t.equal(tooLarge.statusCode, 413);
  t.equal(tooLarge.json().error.code, 'payload_too_large');
  const text = await app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '10.0.0.1',
    headers: { ...auth, 'content-type': 'text/plain' },
    payload: 'hi',
  });
  t.equal(text.statusCode, 415);
  t.equal(text.json().error.code, 'unsupported_media_type');
  const form = await app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '10.0.0.1',
    headers: { ...auth, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'to=1&message=2',
  });
  t.equal(form.statusCode, 415);
  t.equal(handoffs.length, 0, 'the sender was never invoked');
  t.equal((await get('/api/messages')).json().pagination.total, 0, 'nothing recorded');
});

t.test('61 segments is message_too_long with the count; 60 is accepted', async (t) => {
  const { send } = await testApp(t);
  const res = await send({ to, message: 'a'.repeat(153 * 60 + 1) });
  t.equal(res.statusCode, 400);
  t.same(res.json().error, {
    code: 'message_too_long',
    message:
      'Message is 61 segments long (gsm7); at most 60 fit the per-minute send budget. Shorten it or split it into several messages.',
  });
  t.equal((await send({ to, message: 'a'.repeat(153 * 60) })).statusCode, 200);
});

t.test('spacing and budget: 429 send_rate_limited with Retry-After telling exactly when', async (t) => {
  const { app, auth, clock, handoffs } = await testApp(t);
  const post = (message: string) =>
    app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: '10.0.0.2',
      headers: { ...auth, 'content-type': 'application/json' },
      payload: { to, message },
    });
  t.equal((await post('one')).statusCode, 200);
  clock.advance(400);
  const early = await post('two');
  t.equal(early.statusCode, 429);
  t.equal(early.headers['retry-after'], '1');
  t.same(early.json(), {
    success: false,
    smsSent: false,
    error: { code: 'send_rate_limited', message: 'Sends must be at least 1 second apart; retry in 1 s.' },
    retryAfterSeconds: 1,
  });
  clock.advance(600);
  t.equal((await post('two')).statusCode, 200, 'fits exactly 1 s after the last accepted send');
  // Sends at t=0 s and t=1 s hold 2 segments; a 60-segment message fits only when both
  // have left the 60 s window, at t=61 s. Now is t=2 s.
  clock.advance(1000);
  const big = await post('a'.repeat(153 * 59 + 1));
  t.equal(big.statusCode, 429);
  t.equal(big.json().retryAfterSeconds, 59);
  t.equal(big.headers['retry-after'], '59');
  t.match(
    big.json().error.message,
    /send budget \(60 segments per minute\) is used up; this 60-segment message fits in 59 s/,
  );
  const small = await post('fits');
  t.equal(small.statusCode, 200, 'a 1-segment message fits now: 3 of 60 used');
  clock.advance(57_000);
  t.equal((await post('a'.repeat(153 * 59 + 1))).statusCode, 429, 't=59 s: all three still in the window');
  clock.advance(2000);
  t.equal((await post('a'.repeat(153 * 59 + 1))).statusCode, 429, 't=61 s: the send at t=2 s still holds 1 segment');
  clock.advance(1000);
  t.equal((await post('a'.repeat(153 * 59 + 1))).statusCode, 200, 't=62 s: every earlier send has left the window');
  t.equal(handoffs.length, 4, 'refused requests consumed nothing and handed off nothing');
});

t.test('a failed hand-off: 502 send_failed with the reason, record failed', async (t) => {
  const reasons = [
    ['permission_denied', /Termux:API has no permission to send SMS/],
    [
      'timeout',
      /the phone may still send it; the gateway records it as failed and never resends it\. Before sending again, look in the phone's sent messages \(in Termux: `termux-sms-list -t sent -l 5`\)/,
    ],
    ['sender_unavailable', /pkg install termux-api/],
    ['termux_api_error', /sms-gateway doctor/],
  ] as const;
  for (const [reason, hint] of reasons) {
    const { sender } = recordingSender(() => ({ ok: false, reason, detail: 'detail text' }));
    const { send, get } = await testApp(t, { sender });
    const res = await send({ to, message: 'x' });
    t.equal(res.statusCode, 502, reason);
    const body = res.json();
    t.equal(body.success, false);
    t.equal(body.smsSent, false);
    t.equal(body.error.code, 'send_failed');
    // After a timeout nobody knows whether the phone sends it: the message must not say "not sent".
    const what = reason === 'timeout' ? 'Whether the SMS goes out is unknown' : 'The SMS was not sent';
    t.match(body.error.message, new RegExp(`^${what} \\(${reason}: detail text\\)`));
    if (reason === 'timeout') t.notMatch(body.error.message, /not sent/);
    t.match(body.error.message, hint);
    const rec = (await get(`/api/messages/${body.messageId}`)).json().data;
    t.equal(rec.status, 'failed', reason);
    t.equal(rec.reason, reason);
    t.equal(rec.billedSegments, 0);
  }
});

t.test('simulated failure mode', async (t) => {
  const { createSimulatedSender } = await import('../../src/sms/senders.js');
  const { send } = await testApp(t, { sender: createSimulatedSender('failure'), runtime: { simulation: 'failure' } });
  const res = await send({ to, message: 'x' });
  t.equal(res.statusCode, 502);
  t.match(res.json().error.message, /simulated_failure/);
  const random = createSimulatedSender(
    'random',
    (() => {
      let i = 0;
      return () => [0.05, 0.5][i++ % 2]!;
    })(),
  );
  t.same(await random.send({ number: '1', text: 'x', simSlot: 1 }), {
    ok: false,
    reason: 'simulated_failure',
    detail: 'simulated failure (SMS_GATEWAY_SIMULATION=random)',
  });
  t.same(await random.send({ number: '1', text: 'x', simSlot: 1 }), { ok: true });
});

t.test('sms disabled: 503 sms_disabled, nothing recorded', async (t) => {
  const { send, get, handoffs } = await testApp(t, { runtime: { smsEnabled: false } });
  const res = await send({ to, message: 'x' });
  t.equal(res.statusCode, 503);
  t.same(res.json(), {
    success: false,
    smsSent: false,
    error: {
      code: 'sms_disabled',
      message: 'Sending is switched off on this gateway (SMS_GATEWAY_SMS_ENABLED=false).',
    },
  });
  t.equal(handoffs.length, 0);
  t.equal((await get('/api/messages')).json().pagination.total, 0);
});

t.test('Idempotency-Key: the same key gives the same answer and one hand-off', async (t) => {
  const { send, handoffs, get } = await testApp(t);
  const first = await send({ to, message: 'pay day' }, { 'idempotency-key': 'order-42' });
  const again = await send({ to, message: 'pay day' }, { 'idempotency-key': 'order-42' });
  t.equal(first.statusCode, 200);
  t.equal(again.statusCode, 200);
  t.same(again.json(), first.json());
  t.equal(handoffs.length, 1);
  t.equal((await get('/api/messages')).json().pagination.total, 1);
  const elsewhere = await send({ to, message: 'pay day' }, { 'idempotency-key': 'order-42' }, '10.9.8.7');
  t.same(elsewhere.json(), first.json(), 'keys are global: another caller with the same key gets the same answer');
  const reused = await send({ to, message: 'other text' }, { 'idempotency-key': 'order-42' });
  t.equal(reused.statusCode, 400);
  t.same(reused.json().error, { code: 'invalid_request', message: 'Idempotency-Key reused with a different request.' });
  const reusedSim = await send({ to, message: 'pay day', simSlot: 1 }, { 'idempotency-key': 'order-42' });
  t.equal(reusedSim.statusCode, 400, 'an explicit simSlot is a different request');
  for (const bad of ['', 'x'.repeat(129), 'caf\u00e9']) {
    const res = await send({ to, message: 'y' }, { 'idempotency-key': bad });
    t.equal(res.statusCode, 400, `key ${JSON.stringify(bad.slice(0, 10))}`);
  }
  t.equal(handoffs.length, 1);
});

t.test('Idempotency-Key: a failed first answer is replayed too, and a retry is never refused for rate', async (t) => {
  const { sender, handoffs } = recordingSender(() => ({
    ok: false,
    reason: 'timeout',
    detail: 'no answer within 30000 ms',
  }));
  const { app, auth } = await testApp(t, { sender });
  const post = () =>
    app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: '10.0.0.3',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'k1' },
      payload: { to, message: 'x' },
    });
  const first = await post();
  const retry = await post(); // within the 1 s spacing: a new send would be 429
  t.equal(first.statusCode, 502);
  t.equal(retry.statusCode, 502);
  t.same(retry.json(), first.json());
  t.equal(handoffs.length, 1);
});

t.test('Idempotency-Key: a repeat during the first hand-off waits for it and gets the same answer', async (t) => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const { sender, handoffs } = recordingSender(async () => {
    await gate;
    return { ok: true };
  });
  const { app, auth } = await testApp(t, { sender });
  const post = () =>
    app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: '10.0.0.4',
      headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': 'slow' },
      payload: { to, message: 'x' },
    });
  const a = post();
  await new Promise((r) => setTimeout(r, 20));
  const b = post();
  await new Promise((r) => setTimeout(r, 20));
  release();
  const [ra, rb] = await Promise.all([a, b]);
  t.equal(ra.statusCode, 200);
  t.same(rb.json(), ra.json());
  t.equal(handoffs.length, 1);
});

t.test('hand-offs run one at a time in arrival order', async (t) => {
  let active = 0;
  let maxActive = 0;
  const { sender, handoffs } = recordingSender(async () => {
    active++;
    maxActive = Math.max(maxActive, active);
    await new Promise((r) => setTimeout(r, 10));
    active--;
    return { ok: true };
  });
  const { app, auth, clock, gateway } = await testApp(t, { sender });
  const pending = [];
  for (let i = 0; i < 5; i++) {
    clock.advance(1000);
    pending.push(
      app.inject({
        method: 'POST',
        url: '/api/sms/send',
        remoteAddress: '10.0.0.5',
        headers: { ...auth, 'content-type': 'application/json' },
        payload: { to, message: `m${i}` },
      }),
    );
    // Let this request reach the lane (waiting or handed off) before the next one arrives.
    while (gateway.sending.lane.pendingSyncSegments() + handoffs.length < i + 1)
      await new Promise((r) => setImmediate(r));
  }
  // Each waits for its slot, 1 s after the one before (the fake clock moves only when told).
  for (let i = 0; i < 10 && handoffs.length < 5; i++) {
    clock.advance(1000);
    await gateway.sending.lane.runDue();
  }
  const results = await Promise.all(pending);
  t.same(
    results.map((r) => r.statusCode),
    [200, 200, 200, 200, 200],
  );
  t.equal(maxActive, 1);
  t.same(
    handoffs.map((h) => h.text),
    ['m0', 'm1', 'm2', 'm3', 'm4'],
  );
});

t.test('storage unavailable: 503 storage_unavailable on send, reads keep working', async (t) => {
  const { send, get, db, handoffs } = await testApp(t);
  t.equal((await send({ to, message: 'before' })).statusCode, 200);
  db.pragma('query_only = ON');
  const res = await send({ to, message: 'x' });
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'storage_unavailable');
  t.match(res.json().error.message, /nothing was sent/);
  t.equal(handoffs.length, 1, 'no hand-off without a committed record');
  t.equal((await get('/api/messages')).statusCode, 200);
  t.equal((await get('/api/stats')).statusCode, 200);
  db.pragma('query_only = OFF');
  t.equal((await send({ to, message: 'after' })).statusCode, 200, 'recovers when the database is writable again');
});

t.test('a 5xx never shows internals', async (t) => {
  const { sender } = recordingSender(() => {
    throw new Error('SECRET internal detail at /data/data/com.termux');
  });
  const { send } = await testApp(t, { sender });
  const res = await send({ to, message: 'x' });
  t.equal(res.statusCode, 500);
  t.same(res.json(), {
    success: false,
    smsSent: false,
    error: { code: 'internal_error', message: 'Internal error; the gateway logged the details.' },
  });
  t.notMatch(res.body, /SECRET|com\.termux|at /);
});

t.test('the OpenAPI document describes the send route and the history', async (t) => {
  const { get } = await testApp(t);
  const doc = (await get('/openapi.json')).json();
  t.ok(doc.paths['/api/sms/send'].post.requestBody);
  t.ok(doc.paths['/api/messages'].get.parameters.some((p: { name: string }) => p.name === 'limit'));
  t.ok(doc.paths['/api/messages/{id}'].get);
  t.ok(doc.paths['/api/stats'].get.responses['200']);
});
