// Sent-box confirmation (docs/design.md, "At most once"): after a successful
// hand-off in real mode the record stays queued while the confirmer looks the message up
// in the phone's SMS store (termux-sms-list) at 5, 15, 30, 60, 90 and 120 s. Found as sent:
// sent/null; found as failed: failed/not_in_sent_box; not found in time, or the store
// cannot be read: sent/unconfirmed. Messages go through the real send route (testApp, real
// mode); the SMS store is a fake termux-sms-list on PATH unless a case needs a list
// function. The checks are driven by hand (clock.advance + checkDue) so every step is
// deterministic; the background timer is looked at on its own at the end.
import t, { type Test } from 'tap';
import { setTimeout as sleep } from 'node:timers/promises';
import { createConfirmer } from '../../src/sms/confirmation.js';
import type { SmsListResult, listSms } from '../../src/device/sms-list.js';
import type { MessageRecord } from '../../src/store/message-record.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const TO = '+4915112345678';
const OTHER = '+4917000000001';
/** 200 GSM characters: 2 segments, so billedSegments = segments cannot pass by accident. */
const LONG = 'x'.repeat(200);

/** One element as termux-sms-list prints it. */
interface RawSms {
  threadid: number;
  type: string;
  read: boolean;
  address?: string;
  number?: string;
  received: string | null;
  body: string;
  _id: number;
}

function sms(id: number, type: string, address: string, body: string, received: string | null): RawSms {
  return { threadid: 12, type, read: true, address, number: address, received, body, _id: id };
}

/** The phone-local "yyyy-MM-dd HH:mm:ss" of an instant in a zone offsetHours east of UTC. */
const local = (ms: number, offsetHours = 0) =>
  new Date(ms + offsetHours * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

interface SetupOptions {
  timeZone?: string;
  /** termux-sms-list not on PATH at all. */
  noList?: boolean;
  /** Keep the confirmer's background timer (default: stopped, checks driven by hand). */
  background?: boolean;
  home?: string;
  clock?: FakeClock;
}

async function setup(t: Test, o: SetupOptions = {}) {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const app = await testApp(t, {
    confirmSends: true,
    runtime: { mode: 'real', simulation: 'none' },
    deviceEnv: o.noList ? { PATH: '/nonexistent' } : fake.env,
    ...(o.timeZone ? { timeZone: o.timeZone } : {}),
    ...(o.home ? { home: o.home } : {}),
    ...(o.clock ? { clock: o.clock } : {}),
  });
  const confirmer = app.gateway.sending.confirmer!;
  // The timer would run the same checkDue on real time; stopped, only the test drives it.
  if (!o.background) await confirmer.stop();
  const phone = (list: RawSms[]) => fake.output('termux-sms-list', JSON.stringify(list));
  phone([]);
  const sendOk = async (to: string, message: string) => {
    const res = await app.send({ to, message });
    t.equal(res.statusCode, 200, `send to ${to} answers 200`);
    const body = res.json();
    t.equal(body.status, 'queued');
    t.equal(body.smsSent, true);
    return body.messageId as string;
  };
  const record = async (id: string): Promise<MessageRecord> => {
    const res = await app.get(`/api/messages/${id}`);
    t.equal(res.statusCode, 200);
    return res.json().data;
  };
  const row = (id: string) => app.gateway.sending.messages.get(id)!;
  /** Moves the clock to `sec` seconds after the hand-off of `id` (never back) and runs the due checks. */
  const at = async (id: string, sec: number) => {
    const target = row(id).handedOffAt! + sec * 1000;
    const d = target - app.clock.now();
    if (d > 0) app.clock.advance(d);
    await confirmer.checkDue();
  };
  const calls = () => fake.calls('termux-sms-list').length;
  return { ...app, fake, confirmer, phone, sendOk, record, row, at, calls };
}

t.test('1. found as sent at the 5 s check: sent, reason null, billed, settled once', async (t) => {
  const c = await setup(t);
  const id = await c.sendOk(TO, LONG);
  t.equal(c.handoffs.length, 1, 'handed off once');
  t.match(
    await c.record(id),
    { status: 'queued', reason: null, billedSegments: 0, segments: 2 },
    'queued right after the 200',
  );
  t.not(c.row(id).handedOffAt, null, 'the hand-off is recorded');
  t.match(c.gateway.sending.stats.allTime(), { accepted: 1, sent: 0, failed: 0, queued: 1, billedSegments: 0 });
  t.equal(c.confirmer.pending(), 1);

  const handoff = c.row(id).handedOffAt!;
  c.phone([sms(311, 'inbox', OTHER, 'unrelated', local(handoff - 60_000)), sms(312, 'sent', TO, LONG, local(handoff))]);
  await c.at(id, 4.9);
  t.equal(c.calls(), 0, 'nothing is due before 5 s: the store is not read');
  t.equal((await c.record(id)).status, 'queued');

  await c.at(id, 5);
  t.equal(c.calls(), 1, 'one termux-sms-list call at 5 s');
  t.same(c.fake.calls('termux-sms-list')[0]!.argv, ['-t', 'all', '-l', '50', '-o', '0']);
  t.match(await c.record(id), { status: 'sent', reason: null, billedSegments: 2, segments: 2 });
  t.equal(c.row(id).smsStoreId, 312, 'the matching store row is remembered');
  t.equal(c.confirmer.pending(), 0);
  t.match(c.gateway.sending.stats.allTime(), { accepted: 1, sent: 1, failed: 0, queued: 0, billedSegments: 2 });

  // Later checks neither read the store again nor settle a second time.
  await c.at(id, 15);
  await c.at(id, 120);
  t.equal(c.calls(), 1);
  t.match(c.gateway.sending.stats.allTime(), { sent: 1, failed: 0, billedSegments: 2 }, 'settled exactly once');
});

t.test('2. found as failed: failed, not_in_sent_box, nothing billed', async (t) => {
  const c = await setup(t);
  const id = await c.sendOk(TO, LONG);
  c.phone([sms(320, 'failed', TO, LONG, local(c.row(id).handedOffAt!))]);
  await c.at(id, 5);
  t.match(await c.record(id), { status: 'failed', reason: 'not_in_sent_box', billedSegments: 0, segments: 2 });
  t.equal(c.row(id).smsStoreId, 320);
  t.match(c.gateway.sending.stats.allTime(), { accepted: 1, sent: 0, failed: 1, queued: 0, billedSegments: 0 });
  t.equal(c.confirmer.pending(), 0);
});

t.test('3. still in the outbox: stays queued until a later check sees it sent', async (t) => {
  const c = await setup(t);
  const id = await c.sendOk(TO, 'hello');
  const received = local(c.row(id).handedOffAt!);
  c.phone([sms(330, 'outbox', TO, 'hello', received)]);
  await c.at(id, 5);
  t.match(await c.record(id), { status: 'queued', reason: null, billedSegments: 0 });
  t.equal(c.row(id).smsStoreId, null, 'an outbox row is not claimed');
  t.equal(c.confirmer.pending(), 1);
  await c.at(id, 15);
  t.equal((await c.record(id)).status, 'queued', 'still in the outbox at 15 s');
  c.phone([sms(330, 'sent', TO, 'hello', received)]);
  await c.at(id, 30);
  t.equal(c.calls(), 3);
  t.match(await c.record(id), { status: 'sent', reason: null, billedSegments: 1 });
  t.equal(c.row(id).smsStoreId, 330);
  t.match(c.gateway.sending.stats.allTime(), { sent: 1, failed: 0, queued: 0 });
});

t.test('4. never found: queued through the 5..90 s checks, sent/unconfirmed at 120 s', async (t) => {
  const c = await setup(t);
  const id = await c.sendOk(TO, LONG);
  c.phone([sms(340, 'sent', OTHER, LONG, local(c.row(id).handedOffAt!))]);
  let n = 0;
  for (const sec of [5, 15, 30, 60, 90]) {
    await c.at(id, sec);
    t.equal(c.calls(), ++n, `the store is read at ${sec} s`);
    t.match(
      await c.record(id),
      { status: 'queued', reason: null, billedSegments: 0 },
      `queued after the ${sec} s check`,
    );
  }
  await c.at(id, 119.9);
  t.equal(c.calls(), n, 'no check between 90 s and 120 s');
  t.equal((await c.record(id)).status, 'queued');
  await c.at(id, 120);
  t.equal(c.calls(), n + 1);
  t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed', billedSegments: 2 });
  t.equal(c.row(id).smsStoreId, null);
  t.equal(c.confirmer.pending(), 0, 'given up');
  t.match(c.gateway.sending.stats.allTime(), { sent: 1, failed: 0, queued: 0, billedSegments: 2 });
});

t.test('5. store unreadable: unconfirmed at the first check', async (t) => {
  t.test('termux-sms-list without the SMS permission', async (t) => {
    const c = await setup(t);
    c.fake.mode('termux-sms-list', 'permission');
    const id = await c.sendOk(TO, LONG);
    t.equal((await c.record(id)).status, 'queued', 'not settled at the hand-off');
    await c.at(id, 5);
    t.equal(c.calls(), 1);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed', billedSegments: 2 });
    t.equal(c.confirmer.pending(), 0);
  });
  t.test('termux-sms-list not on PATH', async (t) => {
    const c = await setup(t, { noList: true });
    const id = await c.sendOk(TO, LONG);
    t.equal((await c.record(id)).status, 'queued', 'not settled at the hand-off');
    await c.at(id, 5);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed', billedSegments: 2 });
    t.equal(c.confirmer.pending(), 0);
    t.equal(c.calls(), 0, 'the fake was never on PATH');
  });
});

t.test('6. a hanging or odd store: keeps trying, unconfirmed only at the deadline', async (t) => {
  t.test('termux-sms-list hangs (timeout 2 s)', async (t) => {
    const c = await setup(t);
    c.fake.mode('termux-sms-list', 'hang');
    const id = await c.sendOk(TO, LONG);
    const confirmer = createConfirmer({
      store: c.gateway.sending.messages,
      clock: c.clock,
      timeZone: () => 'UTC',
      env: c.fake.env,
      timeoutMs: 2000, // not less: on a loaded machine the fake (a shell script) may not even start sooner
    });
    t.teardown(() => confirmer.stop());
    await confirmer.stop(); // driven by hand
    confirmer.track(id);
    t.equal(confirmer.pending(), 1);
    const atSec = async (sec: number) => {
      c.clock.advance(c.row(id).handedOffAt! + sec * 1000 - c.clock.now());
      await confirmer.checkDue();
    };
    let n = 0;
    for (const sec of [5, 15, 30, 60, 90]) {
      const started = Date.now();
      await atSec(sec);
      t.ok(Date.now() - started >= 1900, `the ${sec} s check waited for the timeout`);
      t.equal(c.calls(), ++n, `tried again at ${sec} s`);
      t.equal((await c.record(id)).status, 'queued', `queued after the ${sec} s timeout`);
    }
    await atSec(120);
    t.equal(c.calls(), n + 1);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed', billedSegments: 2 });
    t.equal(confirmer.pending(), 0);
  });

  t.test('a passing timeout, then the store answers: confirmed', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'hi');
    const answers: SmsListResult[] = [
      { ok: false, failure: 'timeout', detail: 'no answer within 10000 ms' },
      { ok: false, failure: 'api_error', detail: 'the command printed something that is not JSON' },
    ];
    const seen: Parameters<typeof listSms>[0][] = [];
    const list: typeof listSms = async (o) => {
      seen.push(o);
      return (
        answers.shift() ?? {
          ok: true,
          entries: [
            {
              id: 360,
              threadId: 1,
              type: 'sent',
              address: TO,
              sender: null,
              received: local(c.row(id).handedOffAt!),
              body: 'hi',
              read: true,
            },
          ],
        }
      );
    };
    const confirmer = createConfirmer({
      store: c.gateway.sending.messages,
      clock: c.clock,
      timeZone: () => 'UTC',
      list,
    });
    await confirmer.stop();
    confirmer.track(id);
    const atSec = async (sec: number) => {
      c.clock.advance(c.row(id).handedOffAt! + sec * 1000 - c.clock.now());
      await confirmer.checkDue();
    };
    await atSec(5);
    t.equal((await c.record(id)).status, 'queued', 'a timeout is not unconfirmed before the deadline');
    await atSec(15);
    t.equal((await c.record(id)).status, 'queued', 'an odd answer is not unconfirmed before the deadline');
    await atSec(30);
    t.equal(seen.length, 3);
    t.equal(seen[0]!.timeoutMs, 10_000, 'the default timeout is 10 s');
    t.match(await c.record(id), { status: 'sent', reason: null, billedSegments: 1 });
    t.equal(c.row(id).smsStoreId, 360);
  });

  t.test('a store that keeps timing out: unconfirmed at 120 s, not before', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'hi');
    let n = 0;
    const list: typeof listSms = async () => {
      n++;
      return { ok: false, failure: 'timeout', detail: 'no answer within 10000 ms' };
    };
    const confirmer = createConfirmer({
      store: c.gateway.sending.messages,
      clock: c.clock,
      timeZone: () => 'UTC',
      list,
    });
    await confirmer.stop();
    confirmer.track(id);
    for (const sec of [5, 15, 30, 60, 90]) {
      c.clock.advance(c.row(id).handedOffAt! + sec * 1000 - c.clock.now());
      await confirmer.checkDue();
      t.equal((await c.record(id)).status, 'queued', `queued at ${sec} s`);
    }
    c.clock.advance(c.row(id).handedOffAt! + 120_000 - c.clock.now());
    await confirmer.checkDue();
    t.equal(n, 6);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed', billedSegments: 1 });
  });
});

t.test('7. matching rules', async (t) => {
  t.test('a number stored in another format matches', async (t) => {
    const c = await setup(t);
    const a = await c.sendOk('015112345678', 'national');
    const b = await c.sendOk('+49 151 12345678', 'international');
    const cc = await c.sendOk('0049 (151) 1234-5678', 'old style');
    const when = local(c.row(a).handedOffAt!);
    const older = sms(372, 'sent', '015112345678', 'old style', when);
    delete older.address; // older Termux:API versions print only "number"
    c.phone([
      sms(370, 'sent', '+49 151 12345678', 'national', when),
      sms(371, 'sent', '015112345678', 'international', when),
      older,
    ]);
    await c.at(cc, 5);
    t.match(await c.record(a), { status: 'sent', reason: null }, '015112345678 = +49 151 12345678');
    t.match(await c.record(b), { status: 'sent', reason: null }, '+49 151 12345678 = 015112345678');
    t.match(await c.record(cc), { status: 'sent', reason: null }, 'a store row with only "number"');
    t.same([c.row(a).smsStoreId, c.row(b).smsStoreId, c.row(cc).smsStoreId], [370, 371, 372]);
  });

  t.test('a different number or a different text does not match', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'hello');
    const when = local(c.row(id).handedOffAt!);
    c.phone([
      sms(380, 'sent', '+4915112345679', 'hello', when), // last digit differs
      sms(381, 'sent', '+4915212345678', 'hello', when), // another prefix
      sms(382, 'sent', TO, 'hello!', when),
      sms(383, 'sent', TO, 'Hello', when),
      sms(384, 'failed', '+4915112345670', 'hello', when),
    ]);
    for (const sec of [5, 15, 30, 60, 90]) {
      await c.at(id, sec);
      t.equal((await c.record(id)).status, 'queued', `not matched at ${sec} s`);
    }
    await c.at(id, 120);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed' });
    t.equal(c.row(id).smsStoreId, null);
  });

  t.test('the text as trimmed by Termux:API matches', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, '  hi  ');
    t.equal((await c.record(id)).body, '  hi  ', 'the record keeps the text as sent');
    c.phone([sms(390, 'sent', TO, 'hi', local(c.row(id).handedOffAt!))]);
    await c.at(id, 5);
    t.match(await c.record(id), { status: 'sent', reason: null });
    t.equal(c.row(id).smsStoreId, 390);
  });

  t.test('two identical messages checked together: two rows, each claimed once', async (t) => {
    const c = await setup(t);
    const first = await c.sendOk(TO, 'same text');
    const second = await c.sendOk(TO, 'same text');
    t.equal(c.row(second).handedOffAt! - c.row(first).handedOffAt!, 1000, 'sent 1 s apart');
    c.phone([
      sms(400, 'sent', TO, 'same text', local(c.row(first).handedOffAt!)),
      sms(401, 'sent', TO, 'same text', local(c.row(second).handedOffAt!)),
    ]);
    await c.at(second, 5); // both are due now
    t.equal(c.calls(), 1, 'one termux-sms-list call serves every message due');
    t.match(await c.record(first), { status: 'sent', reason: null });
    t.match(await c.record(second), { status: 'sent', reason: null });
    t.same([c.row(first).smsStoreId, c.row(second).smsStoreId], [400, 401], 'the older message gets the older row');
  });

  t.test("two identical messages checked apart: the second does not take the first one's row", async (t) => {
    const c = await setup(t);
    const first = await c.sendOk(TO, 'same text');
    const second = await c.sendOk(TO, 'same text');
    c.phone([sms(410, 'sent', TO, 'same text', local(c.row(first).handedOffAt!))]);
    await c.at(first, 5); // only the first is due
    t.equal(c.row(first).smsStoreId, 410);
    t.equal((await c.record(second)).status, 'queued');
    await c.at(second, 5);
    t.equal((await c.record(second)).status, 'queued', 'row 410 is already claimed');
    t.equal(c.row(second).smsStoreId, null);
    c.phone([
      sms(410, 'sent', TO, 'same text', local(c.row(first).handedOffAt!)),
      sms(411, 'failed', TO, 'same text', local(c.row(second).handedOffAt!)),
    ]);
    await c.at(second, 15);
    t.match(await c.record(second), { status: 'failed', reason: 'not_in_sent_box', billedSegments: 0 });
    t.equal(c.row(second).smsStoreId, 411);
    t.match(await c.record(first), { status: 'sent', reason: null }, 'the first is untouched');
  });

  t.test('an entry from long before the hand-off is not taken (calendar time zone)', async (t) => {
    const c = await setup(t, { timeZone: 'Europe/Berlin' }); // UTC+1 in November
    const id = await c.sendOk(TO, 'again');
    const h = c.row(id).handedOffAt!;
    c.phone([
      sms(420, 'sent', TO, 'again', local(h - 6 * 60_000, 1)), // 6 min before, Berlin time
      sms(421, 'sent', TO, 'again', local(h, 0)), // the hand-off's time read as Berlin time: 1 h before
    ]);
    await c.at(id, 5);
    t.equal((await c.record(id)).status, 'queued', 'neither old entry is taken');
    c.phone([
      sms(420, 'sent', TO, 'again', local(h - 6 * 60_000, 1)),
      sms(421, 'sent', TO, 'again', local(h, 0)),
      sms(422, 'sent', TO, 'again', local(h - 3 * 60_000, 1)), // within the 5 min clock slack
    ]);
    await c.at(id, 15);
    t.match(await c.record(id), { status: 'sent', reason: null });
    t.equal(c.row(id).smsStoreId, 422);
  });

  t.test('the same stamps in a UTC calendar', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'again');
    const h = c.row(id).handedOffAt!;
    c.phone([
      sms(430, 'sent', TO, 'again', local(h - 6 * 60_000)),
      sms(431, 'sent', TO, 'again', local(h - 4 * 60_000)),
    ]);
    await c.at(id, 5);
    t.match(await c.record(id), { status: 'sent', reason: null });
    t.equal(c.row(id).smsStoreId, 431, 'the 6-minute-old row is skipped, the 4-minute-old one is taken');
  });

  t.test('inbox entries never match', async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'echo');
    const when = local(c.row(id).handedOffAt!);
    c.phone([sms(440, 'inbox', TO, 'echo', when), sms(441, 'draft', TO, 'echo', when)]);
    await c.at(id, 5);
    t.equal((await c.record(id)).status, 'queued');
    await c.at(id, 120);
    t.match(await c.record(id), { status: 'sent', reason: 'unconfirmed' });
    t.equal(c.row(id).smsStoreId, null, 'the inbox row was not claimed');
  });
});

t.test('8. restart: pending confirmations resume', async (t) => {
  t.test('within the window: confirmed at the next check, not interrupted', async (t) => {
    const home = tempDir(t);
    const clock = fakeClock();
    const first = await setup(t, { home, clock });
    const id = await first.sendOk(TO, LONG);
    t.equal((await first.record(id)).status, 'queued');
    await first.app.close();
    await first.gateway.stopBackground();
    first.db.close();

    const again = await setup(t, { home, clock, background: true });
    again.phone([sms(450, 'sent', TO, LONG, local(again.row(id).handedOffAt!))]);
    t.match(await again.record(id), { status: 'queued', reason: null }, 'not interrupted by the restart');
    t.equal(again.confirmer.pending(), 0, 'nothing pending before start()');
    again.confirmer.start();
    t.equal(again.confirmer.pending(), 1, 'start() resumes it from the database');
    t.equal(again.confirmer.hasTimer(), true);
    await again.confirmer.stop(); // driven by hand from here
    await again.at(id, 5);
    t.match(await again.record(id), { status: 'sent', reason: null, billedSegments: 2 });
    t.equal(again.row(id).smsStoreId, 450);
    t.match(again.gateway.sending.stats.allTime(), { accepted: 1, sent: 1, failed: 0, queued: 0, billedSegments: 2 });
  });

  t.test('after the window, by the background timer: found -> sent, not found -> unconfirmed', async (t) => {
    const home = tempDir(t);
    const clock = fakeClock();
    const first = await setup(t, { home, clock });
    const found = await first.sendOk(TO, 'found');
    const lost = await first.sendOk(TO, 'lost');
    await first.app.close();
    await first.gateway.stopBackground();
    first.db.close();
    clock.advance(10 * 60_000); // down for 10 minutes

    const again = await setup(t, { home, clock, background: true });
    again.phone([sms(460, 'sent', TO, 'found', local(again.row(found).handedOffAt!))]);
    again.confirmer.start(); // both are overdue: the timer is due at once
    t.equal(again.confirmer.hasTimer(), true);
    await clock.tick(0);
    for (let i = 0; i < 200 && again.confirmer.pending() > 0; i++) await sleep(25);
    t.equal(again.confirmer.pending(), 0);
    t.match(await again.record(found), { status: 'sent', reason: null });
    t.match(await again.record(lost), { status: 'sent', reason: 'unconfirmed' });
    t.equal(again.calls(), 1);
    for (let i = 0; i < 40 && again.confirmer.hasTimer(); i++) await sleep(25);
    t.equal(again.confirmer.hasTimer(), false, 'idle again: no timer');
  });
});

t.test('9. a timer only while something is pending', async (t) => {
  const c = await setup(t, { background: true });
  t.equal(c.confirmer.hasTimer(), false, 'idle at creation');
  c.confirmer.start();
  t.equal(c.confirmer.hasTimer(), false, 'start() with nothing pending keeps no timer');
  t.equal(c.confirmer.pending(), 0);
  const id = await c.sendOk(TO, 'tick');
  t.equal(c.confirmer.pending(), 1);
  t.equal(c.confirmer.hasTimer(), true, 'track() after a confirm-mode send arms the timer');
  // Let the timer do the work: stop, let the fake clock pass the 5 s check, start again.
  await c.confirmer.stop();
  t.equal(c.confirmer.pending(), 1, 'stop() keeps the pending message');
  c.phone([sms(470, 'sent', TO, 'tick', local(c.row(id).handedOffAt!))]);
  c.clock.advance(5000);
  c.confirmer.start();
  t.equal(c.confirmer.hasTimer(), true);
  await c.clock.tick(0);
  for (let i = 0; i < 200 && c.confirmer.pending() > 0; i++) await sleep(25);
  t.match(await c.record(id), { status: 'sent', reason: null });
  for (let i = 0; i < 40 && c.confirmer.hasTimer(); i++) await sleep(25);
  t.equal(c.confirmer.hasTimer(), false, 'nothing pending: no timer');
});

t.test('9b. stop() leaves no timer behind', async (t) => {
  const c = await setup(t, { background: true });
  await c.sendOk(TO, 'tick');
  t.equal(c.confirmer.hasTimer(), true, 'armed by the send');
  await c.confirmer.stop();
  t.equal(c.confirmer.hasTimer(), false, 'stop() clears it');
});

t.test(
  '9c. a check that cannot write its result waits for the next check instead of re-reading the store at once',
  async (t) => {
    const c = await setup(t);
    const id = await c.sendOk(TO, 'x');
    let n = 0;
    const list: typeof listSms = async () => {
      n++;
      return { ok: true, entries: [] };
    };
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const store = {
      ...c.gateway.sending.messages,
      settle: (): boolean => {
        throw full;
      },
    };
    c.clock.advance(c.row(id).handedOffAt! + 200_000 - c.clock.now()); // past the window: unconfirmed is due
    const confirmer = createConfirmer({ store, clock: c.clock, timeZone: () => 'UTC', list });
    t.teardown(() => confirmer.stop());
    confirmer.track(id);
    await c.clock.tick(0);
    t.equal(n, 1, 'the overdue check ran');
    await c.clock.tick(29_999);
    t.equal(n, 1, 'termux-sms-list is not re-run before the 30 s pause');
    await c.clock.tick(1);
    t.equal(n, 2, 'the next check after the pause');
    await confirmer.stop();
  },
);

t.test('no confirmer without confirmSends; a send then settles at once', async (t) => {
  const app = await testApp(t, { runtime: { mode: 'real', simulation: 'none' } });
  t.equal(app.gateway.sending.confirmer, undefined);
  const res = await app.send({ to: TO, message: 'direct' });
  t.equal(res.statusCode, 200);
  t.match(app.gateway.sending.messages.get(res.json().messageId), { status: 'sent', reason: null, billedSegments: 1 });
});

t.test('one termux-sms-list serves every message awaiting confirmation', async (t) => {
  const clock = fakeClock();
  const c = await setup(t, { clock });
  const first = await c.sendOk(TO, 'first of a batch');
  clock.advance(1000);
  const second = await c.sendOk(OTHER, 'second of a batch');
  const h1 = c.row(first).handedOffAt!;
  c.phone([
    sms(401, 'sent', TO, 'first of a batch', local(h1)),
    sms(402, 'sent', OTHER, 'second of a batch', local(h1 + 1000)),
  ]);
  await c.at(first, 5);
  t.equal(c.calls(), 1, "one list at the first message's 5 s check");
  t.match(c.row(first), { status: 'sent', smsStoreId: 401 });
  t.match(c.row(second), { status: 'sent', smsStoreId: 402 }, 'the second, not due yet, found in the same list');
  t.equal(c.confirmer.pending(), 0);
  await c.at(second, 120);
  t.equal(c.calls(), 1, 'no list for the second message');

  // Not found and not due: it keeps its own schedule.
  const third = await c.sendOk(TO, 'third');
  clock.advance(4000);
  const fourth = await c.sendOk(OTHER, 'fourth');
  c.phone([]);
  await c.at(third, 5);
  t.equal(c.calls(), 2);
  t.equal(c.row(fourth).status, 'queued', 'not found, not due: still waiting');
  await c.at(fourth, 5);
  t.equal(c.calls(), 3, 'its own 5 s check');
});
