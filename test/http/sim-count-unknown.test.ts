// The SIM count is read when a request needs it (issue 44, item 1): a request naming a slot
// past the first, sync or queued, waits for the phone's answer when the count is not fresh,
// and is refused when the phone lacks the slot; a count the phone cannot tell refuses no
// slot; slot 1 reads nothing; a replay is answered as the first time, before any read.
import t from 'tap';
import type { RunResult } from '../../src/device/termux.js';
import { testApp } from '../helpers/test-app.js';

const to = '+1 555 123 4567';
const real = { mode: 'real', simulation: 'none' } as const;

/** A phone whose telephony probe answers when the test says (every other probe: not found); counts its reads. */
function slowPhone() {
  let answer: (r: RunResult) => void = () => undefined;
  let reads = 0;
  const run = (command: string): Promise<RunResult> => {
    if (command !== 'termux-telephony-deviceinfo')
      return Promise.resolve({ ok: false, failure: 'not_found', detail: `${command}: not found`, ms: 1 });
    reads++;
    return new Promise<RunResult>((resolve) => (answer = resolve));
  };
  return {
    run,
    reads: () => reads,
    /** The telephony probe in flight answers with this phone_count. */
    tells: (phoneCount: number) => answer({ ok: true, stdout: '', json: { phone_count: phoneCount }, ms: 300 }),
    /** The telephony probe in flight fails as Termux:API does without its permission. */
    cannotTell: () => answer({ ok: false, failure: 'permission_denied', detail: 'no permission', ms: 5 }),
  };
}

/** Lets the requests reach their wait for the probe (a few turns of the event loop, bounded). */
async function untilRead(phone: { reads: () => number }, count: number) {
  for (let i = 0; i < 200 && phone.reads() < count; i++) await new Promise((r) => setImmediate(r));
}

t.test(
  'a request naming slot 3 waits for the count and is refused; nothing recorded, one read for both paths',
  async (t) => {
    const phone = slowPhone();
    const app = await testApp(t, { runtime: real, simCount: 'probes', probeRun: phone.run });
    const sync = app.send({ to, message: 'slot 3', simSlot: 3 });
    const queued = app.queue({ to, message: 'slot 3 queued', simSlot: 3 });
    await untilRead(phone, 1);
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r)); // the second request reaches the read too
    t.equal(phone.reads(), 1, 'one telephony read, shared');
    phone.tells(2);
    const [s, q] = await Promise.all([sync, queued]);
    t.equal(s.statusCode, 400);
    t.same(s.json().error, {
      code: 'invalid_request',
      message: 'Invalid request: simSlot 3 does not exist; this phone reports 2 SIM slots.',
    });
    t.equal(q.statusCode, 400);
    t.match(q.json().error.message, /simSlot 3 does not exist; this phone reports 2 SIM slots\./);
    t.equal(app.handoffs.length, 0, 'nothing handed off');
    t.equal((await app.get('/api/messages')).json().pagination.total, 0, 'nothing recorded');
    const two = await app.send({ to, message: 'slot 2', simSlot: 2 });
    t.equal(two.statusCode, 200, 'slot 2 exists');
    t.equal(phone.reads(), 1, 'a fresh count is not read again');
  },
);

t.test('slot 1 reads nothing; the default slot 2 is read for a sync send', async (t) => {
  const phone = slowPhone();
  const app = await testApp(t, { runtime: real, simCount: 'probes', probeRun: phone.run, defaultSim: 2 });
  t.equal((await app.send({ to, message: 'slot 1', simSlot: 1 })).statusCode, 200);
  t.equal(phone.reads(), 0, 'slot 1 is on every phone: no Termux:API call');
  const byDefault = app.send({ to, message: 'slot 2 by default' });
  await untilRead(phone, 1);
  t.equal(phone.reads(), 1);
  phone.tells(1);
  const refused = await byDefault;
  t.equal(refused.statusCode, 400);
  t.match(
    refused.json().error.message,
    /the default SIM slot 2 \(SMS_GATEWAY_DEFAULT_SIM\) does not exist; this phone reports 1 SIM slot\./,
  );
});

t.test('the phone cannot tell its count: slot 2 is accepted (an unknown count refuses no slot)', async (t) => {
  const phone = slowPhone();
  const app = await testApp(t, { runtime: real, simCount: 'probes', probeRun: phone.run });
  const sync = app.send({ to, message: 'slot 2', simSlot: 2 }, { 'idempotency-key': 'sync-2' });
  await untilRead(phone, 1);
  phone.cannotTell();
  const first = await sync;
  t.equal(first.statusCode, 200);
  t.equal(first.json().simSlot, 2);
  const sendAt = new Date(app.clock.now() + 3_600_000).toISOString();
  const queued = await app.queue({ to, message: 'queued on slot 2', simSlot: 2, sendAt });
  t.equal(queued.statusCode, 202, 'queued too, without a second read before the pause after a failed one');
  t.equal(phone.reads(), 1);

  await t.test(
    'the phone later says 1 slot: slot 2 refused, the earlier request replayed without a read',
    async (t) => {
      const read = app.probes.refresh(['telephony']);
      phone.tells(1);
      await read;
      const replay = await app.send({ to, message: 'slot 2', simSlot: 2 }, { 'idempotency-key': 'sync-2' });
      t.equal(replay.statusCode, 200, 'a known key gets its first answer');
      t.same(replay.json(), first.json());
      t.equal((await app.send({ to, message: 'slot 2 now', simSlot: 2 })).statusCode, 400);
      t.equal(app.handoffs.length, 1, 'nothing handed off again');
    },
  );
});
