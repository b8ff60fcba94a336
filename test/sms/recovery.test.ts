// A hand-off a crash interrupted (docs/design.md "At most once", issue 13): its process
// group is recorded as it starts; the next start ends what is left of that group and, in real
// mode, looks for the message in the phone's SMS store for 30 s: found as sent -> sent; as
// failed -> failed/not_in_sent_box; still in the outbox -> sent/unconfirmed; not found, or the
// store cannot be read -> failed/interrupted. Never handed off again. A replay of its
// Idempotency-Key meanwhile: 503 sender_busy with Retry-After, then the settled answer.
import t, { type Test } from 'tap';
import type { ProcessGroup } from '../../src/core/ids.js';
import type { Sender } from '../../src/sms/senders.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';

const TO = '+4915112345678';
const GROUP: ProcessGroup = { pgid: 4242, boot: 'boot-a', startTicks: 777 };
const local = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const sms = (id: number, type: string, body: string, at: number) => ({
  threadid: 1,
  type,
  read: true,
  address: TO,
  number: TO,
  received: local(at),
  body,
  _id: id,
});

/** A sender whose hand-off starts (its group reported) and never ends: the process dies in it. */
function dyingSender(): { sender: Sender; started: () => number } {
  let started = 0;
  return {
    started: () => started,
    sender: {
      send(_h, hooks) {
        started++;
        hooks?.onStarted?.(GROUP);
        return new Promise(() => {});
      },
    },
  };
}

async function crashDuringHandoff(t: Test, how: 'sync' | 'queue', o: { noList?: boolean; confirm?: boolean } = {}) {
  const home = tempDir(t);
  const clock = fakeClock();
  const dying = dyingSender();
  const first = await testApp(t, { home, clock, sender: dying.sender });
  if (how === 'sync') void first.send({ to: TO, message: 'the text' }, { 'idempotency-key': 'k1' });
  else t.equal((await first.queue({ to: TO, message: 'the text' }, { 'idempotency-key': 'k1' })).statusCode, 202);
  first.gateway.sending.lane.notify();
  for (let i = 0; i < 200 && dying.started() === 0; i++) await new Promise((r) => setImmediate(r));
  t.equal(dying.started(), 1, 'the hand-off began');
  const id = first.gateway.sending.messages.list({ limit: 1, offset: 0 }).rows[0]!.id;
  first.db.close(); // the process dies here: no answer, no settlement

  const fake = fakeTermux(t, ['termux-sms-list']);
  fake.output('termux-sms-list', '[]');
  const ended: ProcessGroup[] = [];
  const after = recordingSender();
  const again = await testApp(t, {
    home,
    clock,
    sender: after.sender,
    confirmSends: o.confirm ?? true,
    runtime: { mode: 'real', simulation: 'none' },
    deviceEnv: o.noList ? { PATH: '/nonexistent' } : fake.env,
    endLeftover: (g) => {
      ended.push(g);
      return 'killed';
    },
  });
  const confirmer = again.gateway.sending.confirmer;
  await confirmer?.stop(); // driven by hand below
  const restartedAt = clock.now();
  const record = () => again.gateway.sending.messages.get(id)!;
  const check = async (sec: number) => {
    const d = restartedAt + sec * 1000 - clock.now();
    if (d > 0) clock.advance(d);
    await confirmer!.checkDue();
  };
  const replay = () =>
    how === 'sync'
      ? again.send({ to: TO, message: 'the text' }, { 'idempotency-key': 'k1' })
      : again.queue({ to: TO, message: 'the text' }, { 'idempotency-key': 'k1' });
  return { again, id, ended, fake, record, check, replay, after, restartedAt };
}

t.test("the hand-off's process group is recorded and ended at the next start", async (t) => {
  const c = await crashDuringHandoff(t, 'sync');
  t.same(c.ended, [GROUP], 'the recorded group (pgid, boot, start time) is handed to endLeftover once');
  t.match(c.record(), { status: 'queued', handedOffAt: null }, 'not judged yet');
  await c.again.gateway.sending.lane.runDue();
  t.equal(c.after.handoffs.length, 0, 'the lane never hands it off again');
});

t.test('found as sent in the SMS store: sent, billed; a replay waits (503), then gets 200', async (t) => {
  const c = await crashDuringHandoff(t, 'sync');
  const early = await c.replay();
  t.equal(early.statusCode, 503, 'a replay while it is looked for');
  t.equal(early.json().error.code, 'sender_busy');
  t.equal(early.headers['retry-after'], '30');
  t.match(early.json().error.message, /looking for it in the phone's SMS store/);
  c.fake.output('termux-sms-list', JSON.stringify([sms(90, 'sent', 'the text', c.restartedAt - 2000)]));
  await c.check(5);
  t.match(c.record(), { status: 'sent', reason: null, billedSegments: 1, smsStoreId: 90 });
  t.not(c.record().handedOffAt, null);
  const late = await c.replay();
  t.equal(late.statusCode, 200, 'the replay now says it was sent');
  t.equal(late.json().messageId, c.id);
  t.equal(c.after.handoffs.length, 0, 'never handed off twice');
});

t.test('found as failed: failed/not_in_sent_box', async (t) => {
  const c = await crashDuringHandoff(t, 'queue');
  c.fake.output('termux-sms-list', JSON.stringify([sms(91, 'failed', 'the text', c.restartedAt)]));
  await c.check(5);
  t.match(c.record(), { status: 'failed', reason: 'not_in_sent_box', billedSegments: 0 });
});

t.test('not found: queued through the 5 and 15 s checks, failed/interrupted at 30 s', async (t) => {
  const c = await crashDuringHandoff(t, 'sync');
  await c.check(5);
  await c.check(15);
  t.match(c.record(), { status: 'queued' }, 'still looked for at 15 s');
  await c.check(30);
  t.match(c.record(), { status: 'failed', reason: 'interrupted', billedSegments: 0, handedOffAt: null });
  t.equal(c.fake.calls('termux-sms-list').length, 3);
  const replay = await c.replay();
  t.equal(replay.statusCode, 502);
  t.match(replay.json().error.message, /interrupted/);
  t.equal(c.after.handoffs.length, 0);
});

t.test('still in the outbox at 30 s: Android has it, sent/unconfirmed', async (t) => {
  const c = await crashDuringHandoff(t, 'queue');
  c.fake.output('termux-sms-list', JSON.stringify([sms(92, 'outbox', 'the text', c.restartedAt)]));
  await c.check(5);
  t.match(c.record(), { status: 'queued' });
  await c.check(30);
  t.match(c.record(), { status: 'sent', reason: 'unconfirmed', billedSegments: 1, smsStoreId: 92 });
});

t.test('the SMS store cannot be read: failed/interrupted at the first check', async (t) => {
  const c = await crashDuringHandoff(t, 'queue', { noList: true });
  await c.check(5);
  t.match(c.record(), { status: 'failed', reason: 'interrupted' });
});

t.test('without a sent box (simulated mode): failed/interrupted at once, as before', async (t) => {
  const c = await crashDuringHandoff(t, 'queue', { confirm: false });
  t.match(c.record(), { status: 'failed', reason: 'interrupted' });
  t.same(c.ended, [GROUP], 'the leftover is ended all the same');
});
