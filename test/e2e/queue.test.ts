// The durable queue in the real process (real mode, fake termux-sms-send): 20 rounds of
// kill -9 (at random moments, and every other round aimed inside a hand-off) while a queue
// of 30 drains (nothing lost, nothing handed off
// twice, nothing left waiting without a way forward), and a hung Termux:API that pauses the
// queue and recovers by itself, with a synchronous send answered within its bound.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, fakeTermux, holdPort8080, httpGet, prng, startGateway, tempDir } from '../helper.js';


type Rec = { id: string; body: string; status: string; reason: string | null };

async function allMessages(auth: Record<string, string>, caller: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = JSON.parse((await httpGet(`/api/messages?limit=100&offset=${offset}`, auth, caller)).body);
    out.push(...page.data);
    if (!page.pagination.hasNext) return out;
  }
}

t.test('kill -9 at random moments while a queue of 30 drains (20 rounds)', async (t) => {
  await holdPort8080(t);
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  t.comment(`seed ${seed} (set CRASH_SEED to repeat)`);
  const random = prng(seed);
  const home = tempDir(t);
  const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
  fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
  fake.mode('termux-sms-send', 'slow');
  const env = { ...fake.env, SMS_GATEWAY_HOME: home, FAKE_TERMUX_SLOW_SECONDS: '0.4', SMS_GATEWAY_QUEUE_RATE: '60' };
  const caller = '127.0.0.41';
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const auth = { authorization: `Bearer ${key}` };

  let gw = await startGateway(t, env, caller);
  const texts = Array.from({ length: 30 }, (_, i) => `queued crash message ${i}`);
  const accepted: string[] = [];
  for (const [i, text] of texts.entries()) {
    const res = await httpGet('/api/messages', { ...auth, 'content-type': 'application/json' }, caller, 'POST', JSON.stringify({ to: `+1555000${String(i).padStart(4, '0')}`, message: text }));
    t.equal(res.status, 202, `queued ${i}`);
    accepted.push(JSON.parse(res.body).data[0].id);
    await sleep(110); // within the per-caller rate (10 a second)
  }
  let killsDuringHandoff = 0;
  for (let round = 0; round < 20; round++) {
    if (round > 0) gw = await startGateway(t, env, caller);
    if (round % 2 === 0) {
      await sleep(200 + random() * 1600);
    } else {
      // Aimed: wait for the next hand-off to begin (the queue may have run dry), then kill
      // within its 0.4 s, so the interrupted case is always exercised.
      const target = fake.callTimes('termux-sms-send').length + 1;
      const giveUp = Date.now() + 5000;
      while (fake.callTimes('termux-sms-send').length < target && Date.now() < giveUp) await sleep(5);
      await sleep(random() * 150);
    }
    const killedAt = Date.now();
    gw.proc.kill('SIGKILL');
    await gw.exited;
    // A hand-off was running if the last termux-sms-send started less than its 0.4 s before.
    const last = fake.callTimes('termux-sms-send').at(-1);
    if (last !== undefined && killedAt - last < 400) killsDuringHandoff++;
  }

  // A last, clean start: recovery runs, whatever still waits is sent, at the pace.
  gw = await startGateway(t, env, caller);
  let records: Rec[] = [];
  for (let i = 0; i < 600; i++) {
    records = await allMessages(auth, caller);
    if (!records.some((m) => m.status === 'queued')) break;
    await sleep(100);
  }
  const byId = new Map(records.map((m) => [m.id, m]));
  t.same(accepted.filter((id) => !byId.has(id)), [], 'every accepted message is in the history');
  t.same(records.filter((m) => m.status !== 'sent' && m.status !== 'failed').map((m) => m.id), [], 'every one ended sent or failed');
  const handed = fake.calls('termux-sms-send').map((c) => c.stdin.toString());
  t.same(handed.filter((x, i) => handed.indexOf(x) !== i), [], 'no text was handed off twice');
  t.same(handed.filter((x) => !texts.includes(x)), [], 'every hand-off belongs to an accepted message');
  const interrupted = records.filter((m) => m.reason === 'interrupted').length;
  const sent = records.filter((m) => m.status === 'sent').map((m) => m.body);
  t.same(sent.filter((b) => !handed.includes(b)), [], 'nothing is reported sent that was not handed off');
  t.comment(`${handed.length} handed off, ${sent.length} sent, ${interrupted} interrupted, ${killsDuringHandoff} kills during a hand-off`);
  t.ok(killsDuringHandoff > 0, `some kills landed during a hand-off (${killsDuringHandoff})`);
  t.ok(interrupted > 0, 'and those hand-offs ended failed/interrupted, never resent');
  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});

t.test('a hung Termux:API pauses the queue; a synchronous send answers within its bound; it recovers by itself', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
  fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
  fake.mode('termux-sms-send', 'hang');
  const env = { ...fake.env, SMS_GATEWAY_HOME: home, SMS_GATEWAY_SEND_TIMEOUT_SECONDS: '8' };
  const caller = '127.0.0.42';
  const gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const auth = { authorization: `Bearer ${key}` };
  const json = { ...auth, 'content-type': 'application/json' };
  const res = await httpGet('/api/messages', json, caller, 'POST', JSON.stringify({ to: ['+15550001', '+15550002', '+15550003'], message: 'backlog' }));
  t.equal(res.status, 202);
  const ids: string[] = JSON.parse(res.body).data.map((r: { id: string }) => r.id);
  // The first queued hand-off hangs (8 s timeout); a synchronous send now cannot get a slot.
  const started = Date.now();
  const sync = await httpGet('/api/sms/send', json, caller, 'POST', JSON.stringify({ to: '+15559999', message: 'now' }));
  const took = Date.now() - started;
  t.ok(took < 13_000, `answered within the send timeout + 5 s (${took} ms)`);
  t.equal(sync.status, 503);
  t.match(JSON.parse(sync.body), { error: { code: 'sender_busy', message: /nothing was recorded or sent/ } });
  t.ok(Number(sync.headers['retry-after']) >= 1, 'with Retry-After');
  const status = async (id: string) => JSON.parse((await httpGet(`/api/messages/${id}`, auth, caller)).body).data;
  for (let i = 0; i < 100 && (await status(ids[0]!)).status === 'queued'; i++) await sleep(100);
  t.match(await status(ids[0]!), { status: 'failed', reason: 'timeout' }, 'the hung one failed, never resent');
  const all = await allMessages(auth, caller);
  t.equal(all.length, 3, 'the refused synchronous send was not recorded');
  const queue = JSON.parse((await httpGet('/api/diagnostics', auth, caller)).body).data.checks.queue;
  t.match(queue, { status: 'degraded', value: { paused: true, waiting: 2, consecutiveTimeouts: 1 } });
  t.match(await status(ids[1]!), { status: 'queued' }, 'the rest stay queued during the pause');
  const callsDuringPause = fake.calls('termux-sms-send').length;
  fake.mode('termux-sms-send', 'ok');
  await sleep(5000);
  t.equal(fake.calls('termux-sms-send').length, callsDuringPause, 'untouched during the pause');
  for (let i = 0; i < 400 && (await status(ids[2]!)).status === 'queued'; i++) await sleep(100);
  t.match(await status(ids[1]!), { status: 'sent' }, 'recovered by itself after the pause');
  t.match(await status(ids[2]!), { status: 'sent' });
  const times = fake.callTimes('termux-sms-send').slice(-2);
  t.ok(times[1]! - times[0]! >= 800, 'the backlog left at the pace, not in a burst'); // the fake's own clock: its start may lag
  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});
