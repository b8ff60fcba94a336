// A restart resets nothing: the send budget and spacing are rebuilt from the history,
// and an Idempotency-Key answered before the restart is still honoured after it.
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';

t.test('budget and spacing survive a restart', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const first = await testApp(t, { home, clock });
  // 59 segments at t=1 s, then a 1-segment send at t=2 s: the budget is full.
  t.equal((await first.send({ to: '12345', message: 'a'.repeat(153 * 58 + 1) })).statusCode, 200);
  t.equal((await first.send({ to: '12345', message: 'b' })).statusCode, 200);
  await first.app.close();
  first.db.close();

  const again = await testApp(t, { home, clock });
  clock.advance(500); // t=2.5 s
  const early = await again.app.inject({
    method: 'POST',
    url: '/api/sms/send',
    remoteAddress: '10.0.0.9',
    headers: { ...again.auth, 'content-type': 'application/json' },
    payload: { to: '12345', message: 'c' },
  });
  t.equal(early.statusCode, 429, 'spacing remembered across the restart');
  // send() advances 1 s: t=3.5 s. The budget is full until t=61 s.
  const full = await again.send({ to: '12345', message: 'c' });
  t.equal(full.statusCode, 429);
  t.equal(full.json().retryAfterSeconds, 58, 'budget remembered: the 59 segments from t=1 s leave at t=61 s');
  clock.advance(56_500); // t=60 s, +1 s in send() = t=61 s
  t.equal((await again.send({ to: '12345', message: 'c' })).statusCode, 200);
});

t.test('an Idempotency-Key answered before a restart is replayed after it', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const rec = recordingSender();
  const first = await testApp(t, { home, clock, sender: rec.sender });
  const a = await first.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'abc' });
  await first.app.close();
  first.db.close();
  const rec2 = recordingSender();
  const again = await testApp(t, { home, clock, sender: rec2.sender });
  const b = await again.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'abc' });
  t.equal(b.statusCode, 200);
  t.same(b.json(), a.json());
  t.equal(rec.handoffs.length + rec2.handoffs.length, 1);
});

t.test('a key whose first request was interrupted by a crash answers 502 interrupted, never a resend', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const never = recordingSender(() => new Promise(() => {}));
  const first = await testApp(t, { home, clock, sender: never.sender });
  void first.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'lost' });
  for (let i = 0; i < 100 && never.handoffs.length === 0; i++) await new Promise((r) => setImmediate(r));
  t.equal(never.handoffs.length, 1);
  first.db.close(); // the process "dies" here: no answer was given
  const rec = recordingSender();
  const again = await testApp(t, { home, clock, sender: rec.sender });
  const retry = await again.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'lost' });
  t.equal(retry.statusCode, 502);
  t.equal(retry.json().error.code, 'send_failed');
  t.match(retry.json().error.message, /interrupted.*never resent automatically/);
  t.equal(rec.handoffs.length, 0);
});

t.test('a failed first answer (502, with its detail) is replayed exactly after a restart', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const failing = recordingSender(() => ({ ok: false, reason: 'termux_api_error', detail: 'detail text' }));
  const first = await testApp(t, { home, clock, sender: failing.sender });
  const a = await first.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'failed' });
  t.equal(a.statusCode, 502);
  t.match(a.json().error.message, /termux_api_error: detail text/);
  await first.app.close();
  first.db.close();
  const again = await testApp(t, { home, clock });
  const b = await again.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'failed' });
  t.equal(b.statusCode, 502);
  t.same(b.json(), a.json());
  t.equal(failing.handoffs.length + again.handoffs.length, 1);
});

t.test('answers stored by an earlier version (status and body) are replayed as they were', async (t) => {
  const home = tempDir(t);
  const clock = fakeClock();
  const first = await testApp(t, { home, clock });
  const sent = await first.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'old-send' });
  const queued = await first.queue({ to: '12346', message: 'y' }, { 'idempotency-key': 'old-queue' });
  t.equal(sent.statusCode, 200);
  t.equal(queued.statusCode, 202);
  // What 0.2 wrote: the HTTP answer itself. Marked, to see that it is the stored one.
  const stored = (key: string, status: number, body: unknown) =>
    first.db
      .prepare('UPDATE messages SET response_status = ?, response_body = ? WHERE idempotency_key = ?')
      .run(status, JSON.stringify(body), key);
  const oldSend = { ...sent.json(), warning: 'stored by 0.2' };
  const oldQueue = { success: true, data: [{ ...queued.json().data[0], to: 'stored by 0.2' }] };
  t.equal(stored('old-send', 200, oldSend).changes, 1);
  t.equal(stored('old-queue', 202, oldQueue).changes, 1);
  await first.app.close();
  first.db.close();
  const again = await testApp(t, { home, clock });
  const s = await again.send({ to: '12345', message: 'x' }, { 'idempotency-key': 'old-send' });
  t.equal(s.statusCode, 200);
  t.same(s.json(), oldSend);
  const q = await again.queue({ to: '12346', message: 'y' }, { 'idempotency-key': 'old-queue' });
  t.equal(q.statusCode, 202);
  t.same(q.json(), oldQueue);
});
