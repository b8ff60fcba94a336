// The durable queue in the real process (real mode, fake termux-sms-send): a hung
// Termux:API pauses the queue and it recovers by itself, with a synchronous send answered
// within its bound. (kill -9 while the queue drains: kill-queued.test.ts.) Timing is judged
// on the gateway's own record (its hand-off times in gateway.db), never on the start times
// of two processes, which a loaded machine delays by different amounts.
import t from 'tap';
import Database from 'better-sqlite3';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { SPACING_MS } from '../../src/sms/pacing.js';
import { SYNC_SLOT_WAIT_MS } from '../../src/sms/sync-waiters.js';

type Rec = { id: string; status: string };

async function allMessages(auth: Record<string, string>, caller: string): Promise<Rec[]> {
  const out: Rec[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = JSON.parse((await httpGet(`/api/messages?limit=100&offset=${offset}`, auth, caller)).body);
    out.push(...page.data);
    if (!page.pagination.hasNext) return out;
  }
}

t.test(
  'a hung Termux:API pauses the queue; a synchronous send answers within its bound; it recovers by itself',
  async (t) => {
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
    const res = await httpGet(
      '/api/messages',
      json,
      caller,
      'POST',
      JSON.stringify({ to: ['+15550001', '+15550002', '+15550003'], message: 'backlog' }),
    );
    t.equal(res.status, 202);
    const ids: string[] = JSON.parse(res.body).data.map((r: { id: string }) => r.id);
    // The first queued hand-off hangs (8 s timeout); a synchronous send now cannot get a slot.
    // sender_busy is the answer the gateway gives when its own slot wait (5 s) runs out:
    // answered within its bound, not after the hung hand-off (the time is only shown).
    const started = Date.now();
    const sync = await httpGet(
      '/api/sms/send',
      json,
      caller,
      'POST',
      JSON.stringify({ to: '+15559999', message: 'now' }),
    );
    t.comment(
      `the synchronous send answered after ${Date.now() - started} ms (its slot wait: ${SYNC_SLOT_WAIT_MS} ms)`,
    );
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
    gw.proc.kill('SIGTERM');
    t.equal(await gw.exited, 0);
    // The hand-off times the gateway recorded: its wall clock, read just before its monotonic
    // pacing check allowed the next hand-off (so at most 1 ms of rounding below the pace).
    const db = new Database(join(home, 'gateway.db'), { readonly: true });
    const startedAt = (id: string) =>
      (db.prepare('SELECT handoff_started_at AS at FROM messages WHERE id = ?').get(id) as { at: number }).at;
    const [first, second] = [startedAt(ids[1]!), startedAt(ids[2]!)];
    db.close();
    t.ok(second - first >= SPACING_MS - 1, `the backlog left at the pace, not in a burst (${second - first} ms apart)`);
  },
);
