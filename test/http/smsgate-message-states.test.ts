// SMSGate's message states on the composed gateway: each recipient's state through its life
// (Pending, Processed, Sent, Failed with the reason named) and the message's from them, the states
// map's times, cancel (DELETE /messages/:id and /message/:id), priority through SMSGate's POST, and
// the store's read of a record's SMSGate id.
import t from 'tap';
import type { HandoffResult } from '../../src/sms/handoff.js';
import type { Sender } from '../../src/sms/senders.js';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { smsgateClient } from '../helpers/smsgate-client.js';

const A = '+15550110001';
const B = '+15550110002';

/** A sender that holds the hand-off to `hold` until released, fails those to `fail`, sends the rest. */
function scriptedSender(script: { hold?: string; fail?: string }) {
  let release: ((r: HandoffResult) => void) | undefined;
  const numbers: string[] = [];
  const sender: Sender = {
    send(h) {
      numbers.push(h.number);
      if (h.number === script.hold) return new Promise<HandoffResult>((resolve) => (release = resolve));
      if (h.number === script.fail) return Promise.resolve({ ok: false, reason: 'simulated_failure', detail: 'x' });
      return Promise.resolve({ ok: true });
    },
  };
  return { sender, numbers, release: () => release?.({ ok: true }) };
}

const iso = (ms: number) => new Date(ms).toISOString();

t.test('the states through a message life, with the states map', async (t) => {
  const clock = fakeClock();
  const script = scriptedSender({ hold: A, fail: B });
  const app = await testApp(t, { clock, sender: script.sender });
  const sg = smsgateClient(app);
  const accepted = clock.now();
  const res = await sg.post('/messages', { id: 'life', message: 'hello', phoneNumbers: [A, B] });
  t.equal(res.statusCode, 202);
  const state = async () => (await sg.get('/messages/life')).json();
  const running = app.gateway.sending.lane.runDue();
  for (let i = 0; i < 200 && script.numbers.length === 0; i++) await new Promise((r) => setImmediate(r));
  t.match(await state(), {
    state: 'Pending',
    recipients: [
      { phoneNumber: A, state: 'Processed' },
      { phoneNumber: B, state: 'Pending' },
    ],
    states: { Pending: iso(accepted), Processed: iso(accepted) },
  });
  clock.advance(300);
  script.release();
  await running;
  const afterA = await state();
  t.same(
    afterA.recipients.map((r: { state: string }) => r.state),
    ['Sent', 'Pending'],
  );
  t.equal(afterA.state, 'Pending', 'any recipient Pending: the message is Pending');
  t.equal(afterA.states.Sent, iso(accepted + 300));
  clock.advance(1000);
  await app.gateway.sending.lane.runDue();
  const done = await state();
  t.same(done.recipients[0], { phoneNumber: A, state: 'Sent' });
  t.match(done.recipients[1], { phoneNumber: B, state: 'Failed', error: /^simulated_failure: / });
  t.equal(done.state, 'Sent', 'one sent, one failed: Sent (Failed only when all failed)');
  t.same(done.states, {
    Pending: iso(accepted),
    Processed: iso(accepted + 1000), // B's hand-off began on the lane's timer, 1 s after A's
    Sent: iso(accepted + 300),
    Failed: iso(accepted + 1300),
  });
  t.same(Object.keys(done.states), ['Pending', 'Processed', 'Sent', 'Failed'], 'in the order of the life');
});

t.test('every recipient failed: Failed, the reason named in error', async (t) => {
  const script = scriptedSender({ fail: A });
  const app = await testApp(t, { sender: script.sender });
  const sg = smsgateClient(app);
  await sg.post('/messages', { id: 'bad', message: 'x', phoneNumbers: [A] });
  await app.gateway.sending.lane.runDue();
  t.match((await sg.get('/message/bad')).json(), {
    state: 'Failed',
    recipients: [{ state: 'Failed', error: /simulated_failure/ }],
  });
});

t.test('DELETE cancels what has not been handed off; twice: as it is; 400 with nothing waiting; 404', async (t) => {
  const clock = fakeClock();
  const app = await testApp(t, { clock });
  const sg = smsgateClient(app);
  await sg.post('/messages', { id: 'two', message: 'x', phoneNumbers: [A, B] });
  await app.gateway.sending.lane.runDue(); // A handed off and sent; B waits its second
  const cancelled = await sg.delete('/messages/two');
  t.equal(cancelled.statusCode, 200);
  const body = cancelled.json();
  t.match(body, {
    id: 'two',
    state: 'Cancelled',
    recipients: [
      { phoneNumber: A, state: 'Sent' },
      { phoneNumber: B, state: 'Cancelled' },
    ],
  });
  t.equal(body.textMessage, undefined, 'no text in the cancel answer (as SMSGate)');
  t.equal(body.states.Cancelled, iso(clock.now()));
  const again = await sg.delete('/message/two');
  t.equal(again.statusCode, 200, 'already cancelled: its state again');
  t.same(again.json(), body);
  clock.advance(5000);
  await app.gateway.sending.lane.runDue();
  t.equal(app.handoffs.length, 1, 'B never handed off');
  const native = (await app.get('/api/messages?status=cancelled')).json().data;
  t.same(
    native.map((r: { to: string }) => r.to),
    [B],
  );

  await sg.post('/messages', { id: 'gone', message: 'x', phoneNumbers: [A] });
  await app.gateway.sending.lane.runDue();
  const late = await sg.delete('/messages/gone');
  t.equal(late.statusCode, 400, 'sent already: nothing to cancel');
  t.match(late.json(), { message: /gone is Sent, not Pending/ });
  const unknown = await sg.delete('/messages/nope');
  t.equal(unknown.statusCode, 404);
  t.match(unknown.json(), { message: /nope/ });
  t.equal((await sg.get('/messages/nope')).statusCode, 404, 'GET of an unknown id: 404');
});

t.test('priority through SMSGate: 10 behind 20 waiting goes first', async (t) => {
  // Queued in the last minute of quiet hours, so that all wait when the lane may go.
  const clock = fakeClock(Date.UTC(2026, 10, 23, 6, 59, 0));
  const app = await testApp(t, { clock, quietHours: parseQuietHours('22:00-07:00') as QuietHours });
  const sg = smsgateClient(app);
  const bulk = Array.from({ length: 20 }, (_, i) => `+1555012${String(i).padStart(4, '0')}`);
  t.equal((await sg.post('/messages', { message: 'bulk', phoneNumbers: bulk })).statusCode, 202);
  t.equal((await sg.post('/messages', { message: 'urgent', phoneNumbers: [A], priority: 10 })).statusCode, 202);
  for (let s = 0; s < 120; s++) {
    clock.advance(1000);
    await app.gateway.sending.lane.runDue();
  }
  t.equal(app.handoffs.length, 21);
  t.equal(app.handoffs[0]!.text, 'urgent');
  t.same(
    app.handoffs.slice(1).map((h) => h.number),
    bulk,
  );
});

t.test("the store's read: a record's SMSGate id, undefined for one queued another way", async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop();
  const sg = smsgateClient(app);
  await sg.post('/messages', { id: 'mine', message: 'x', phoneNumbers: [A, B] });
  const native = (await app.queue({ to: '+15550110003', message: 'y' })).json().data[0].id;
  const records = (await app.get('/api/messages?status=queued')).json().data as { id: string; to: string }[];
  const read = app.gateway.sending.smsgate.messages.smsgateIdOfMessage;
  t.same(
    records.map((r) => [r.to, read(r.id)]),
    [
      ['+15550110003', undefined],
      [B, 'mine'],
      [A, 'mine'],
    ],
  );
  t.equal(read(native), undefined);
});
