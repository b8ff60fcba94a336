// Inputs that must be refused (invalid UTF-8, a text the phone would trim to nothing) and
// Idempotency-Key replays that come before every check that may have changed since the
// first request (sending switched off, the SIM count, the send budget).
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';

const TO = '+15550001111';

t.test('a JSON body with invalid UTF-8 is a 400, and nothing is recorded or sent', async (t) => {
  const { app, auth, handoffs, gateway } = await testApp(t);
  for (const url of ['/api/sms/send', '/api/messages']) {
    const payload = Buffer.concat([
      Buffer.from(`{"to":"${TO}","message":"caf`),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('"}'),
    ]);
    const res = await app.inject({
      method: 'POST',
      url,
      remoteAddress: '10.0.0.9',
      headers: { ...auth, 'content-type': 'application/json' },
      payload,
    });
    t.equal(res.statusCode, 400, url);
    t.same(
      res.json(),
      {
        success: false,
        smsSent: false,
        error: { code: 'invalid_request', message: 'Invalid request: the body is not valid UTF-8.' },
      },
      url,
    );
  }
  t.equal(handoffs.length, 0);
  t.equal(gateway.sending.messages.count(), 0);
  const ok = await app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '10.0.0.9',
    headers: { ...auth, 'content-type': 'application/json' },
    payload: Buffer.from(`{"to":"${TO}","message":"café ✓"}`),
  });
  t.equal(ok.statusCode, 200, 'valid UTF-8 is fine');
  t.equal(handoffs[0]!.text, 'café ✓');
});

t.test(
  'a message of only control characters or NUL is a 400 (no visible character: the phone would send it empty)',
  async (t) => {
    const { send, queue, handoffs } = await testApp(t);
    for (const message of ['\u0000', '\u0001\u0002\u0003', '\u0000 \t\u001f', '\u0007\r\n']) {
      const res = await send({ to: TO, message });
      t.equal(res.statusCode, 400, JSON.stringify(message));
      t.match(res.json().error, { code: 'invalid_request', message: /no visible character|is empty/ });
      t.equal((await queue({ to: TO, message })).statusCode, 400);
    }
    t.equal(handoffs.length, 0);
    t.equal((await send({ to: TO, message: '\u0000x' })).statusCode, 200, 'one visible character is enough');
  },
);

t.test('a known Idempotency-Key is answered before checks that changed since', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const first = await testApp(t, { home, clock, simCount: 2 });
  const body = { to: TO, message: 'once', simSlot: 2 };
  const a = await first.send(body, { 'idempotency-key': 'k1' });
  t.equal(a.statusCode, 200);
  t.equal((await first.send({ to: TO, message: 'x'.repeat(153 * 59) })).statusCode, 200, 'the window is now full');

  await t.test('the send budget is full', async (t) => {
    const again = await first.send(body, { 'idempotency-key': 'k1' });
    t.equal(again.statusCode, 200);
    t.same(again.json(), a.json());
    t.equal((await first.send({ to: TO, message: 'new' })).statusCode, 429, 'a new request is refused');
  });

  await t.test('sending switched off, and the phone now has one SIM', async (t) => {
    const later = await testApp(t, { home, clock, simCount: 1, runtime: { smsEnabled: false } });
    const again = await later.send(body, { 'idempotency-key': 'k1' });
    t.equal(again.statusCode, 200);
    t.same(again.json(), a.json());
    t.equal(later.handoffs.length, 0, 'nothing handed off again');
    t.equal((await later.send({ to: TO, message: 'new' })).statusCode, 503, 'a new request: sms_disabled');
  });
  t.equal(first.handoffs.length, 2);
});

t.test('gateway.db deleted while running: sends are 503 storage_unavailable, diagnostics failing', async (t) => {
  const { send, queue, get, home, handoffs } = await testApp(t);
  t.equal((await send({ to: TO, message: 'before' })).statusCode, 200);
  const { statSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  t.equal(statSync(join(home, 'gateway.db')).mode & 0o777, 0o600, 'the database file is owner-only');
  rmSync(join(home, 'gateway.db'));
  const res = await send({ to: TO, message: 'after' });
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'storage_unavailable');
  t.equal((await queue({ to: TO, message: 'after' })).statusCode, 503);
  t.equal(handoffs.length, 1, 'nothing handed off without a kept record');
  const diag = (await get('/api/diagnostics')).json().data;
  t.equal(diag.status, 'failing');
  t.match(diag.checks.database, {
    status: 'failing',
    value: { fileDeleted: true },
    hint: /was deleted while the gateway runs/,
  });
});
