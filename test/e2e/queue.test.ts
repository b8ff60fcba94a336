// The durable queue in the real process (real mode, fake termux-sms-send): a hung
// Termux:API pauses the queue and it recovers by itself, with a synchronous send answered
// within its bound. (kill -9 while the queue drains: kill-queued.test.ts.)
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';

type Rec = { id: string; status: string };

async function allMessages(auth: Record<string, string>, caller: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = JSON.parse((await httpGet(`/api/messages?limit=100&offset=${offset}`, auth, caller)).body);
    out.push(...page.data);
    if (!page.pagination.hasNext) return out;
  }
}

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
