// The SIM count before the phone has told it (issue 34, case 7): until the first telephony
// probe answers, a dual-SIM phone's slot 2 is not refused, sync or queued, by simSlot or by
// SMS_GATEWAY_DEFAULT_SIM; once the phone says 1 slot, slot 2 is refused, and a replay of
// a request accepted before is still answered as the first time.
import t from 'tap';
import type { RunResult } from '../../src/device/termux.js';
import { testApp } from '../helpers/test-app.js';

const to = '+1 555 123 4567';

/** A phone whose telephony probe answers when the test says (every other probe: not found). */
function slowPhone() {
  let answer: (r: RunResult) => void = () => undefined;
  const telephony = new Promise<RunResult>((resolve) => (answer = resolve));
  const run = (command: string): Promise<RunResult> =>
    command === 'termux-telephony-deviceinfo' ? telephony : Promise.resolve({ ok: false, failure: 'not_found', detail: `${command}: not found`, ms: 1 });
  return {
    run,
    /** The telephony probe answers with this phone_count. */
    tells: (phoneCount: number) => answer({ ok: true, stdout: '', json: { phone_count: phoneCount }, ms: 300 }),
  };
}

t.test('real mode, telephony not answered yet: slot 2 is accepted, sync and queued, explicit and default', async (t) => {
  const phone = slowPhone();
  const app = await testApp(t, { runtime: { mode: 'real', simulation: 'none' }, simCount: 'probes', probeRun: phone.run, defaultSim: 2 });
  const explicit = await app.send({ to, message: 'slot 2 by simSlot', simSlot: 2 }, { 'idempotency-key': 'sync-2' });
  t.equal(explicit.statusCode, 200, 'simSlot 2, sync');
  t.equal(explicit.json().simSlot, 2);
  const byDefault = await app.send({ to, message: 'slot 2 by default' });
  t.equal(byDefault.statusCode, 200, 'SMS_GATEWAY_DEFAULT_SIM=2, sync');
  t.equal(byDefault.json().simSlot, 2);
  // Due in an hour: the lane hands nothing off during the test, so every hand-off is a sync send's.
  const sendAt = new Date(app.clock.now() + 3_600_000).toISOString();
  const queued = await app.queue({ to, message: 'queued on slot 2', simSlot: 2, sendAt }, { 'idempotency-key': 'queue-2' });
  t.equal(queued.statusCode, 202, 'simSlot 2, queued');
  const queuedDefault = await app.queue({ to, message: 'queued on the default slot', sendAt });
  t.equal(queuedDefault.statusCode, 202, 'SMS_GATEWAY_DEFAULT_SIM=2, queued');
  t.same(
    app.handoffs.map((h) => h.simSlot),
    [2, 2],
    'the sync sends went to slot 2',
  );

  await t.test('the phone then says 1 slot: slot 2 refused, the earlier requests replayed', async (t) => {
    phone.tells(1);
    await app.probes.refresh();
    const refused = await app.send({ to, message: 'slot 2 now', simSlot: 2 });
    t.equal(refused.statusCode, 400);
    t.same(refused.json().error, { code: 'invalid_request', message: 'Invalid request: simSlot 2 does not exist; this phone reports 1 SIM slot.' });
    t.equal((await app.queue({ to, message: 'queued, default slot now' })).statusCode, 400, 'the default slot 2 too');
    const replay = await app.send({ to, message: 'slot 2 by simSlot', simSlot: 2 }, { 'idempotency-key': 'sync-2' });
    t.equal(replay.statusCode, 200, 'a known key gets its first answer');
    t.same(replay.json(), explicit.json());
    const queuedReplay = await app.queue({ to, message: 'queued on slot 2', simSlot: 2, sendAt }, { 'idempotency-key': 'queue-2' });
    t.equal(queuedReplay.statusCode, 202);
    t.same(queuedReplay.json(), queued.json());
    t.equal(app.handoffs.length, 2, 'nothing handed off again');
  });
});

t.test('real mode, the phone answered 2 slots: slot 2 accepted, slot 3 refused with the count', async (t) => {
  const phone = slowPhone();
  phone.tells(2);
  const app = await testApp(t, { runtime: { mode: 'real', simulation: 'none' }, simCount: 'probes', probeRun: phone.run });
  await app.probes.refresh();
  t.equal((await app.send({ to, message: 'slot 2', simSlot: 2 })).statusCode, 200);
  const three = await app.queue({ to, message: 'slot 3', simSlot: 3 });
  t.equal(three.statusCode, 400);
  t.match(three.json().error.message, /simSlot 3 does not exist; this phone reports 2 SIM slots\./);
});
