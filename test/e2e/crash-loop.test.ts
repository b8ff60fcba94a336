// Crash loop: 20 rounds of SIGKILL while paced sends go to the real gateway (real mode, a
// fake termux-sms-send that takes 0.3 s). Even rounds kill at a random moment; odd rounds
// kill while their second hand-off is under way, so the interrupted case is always exercised (random
// moments alone missed every hand-off in one CI run). Afterwards every
// message acknowledged with 200 is in the history, no text reached termux-sms-send twice,
// every hand-off belongs to a recorded message, nothing stays queued, and SQLite's
// integrity_check says ok.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import Database from 'better-sqlite3';
import { CLI, fakeTermux, holdPort8080, httpGet, prng, startGateway, tempDir } from '../helper.js';


t.test('20 rounds of kill -9 during paced sends', async (t) => {
  await holdPort8080(t);
  const seed = Number(process.env.CRASH_SEED ?? Date.now() % 1_000_000);
  t.comment(`seed ${seed} (set CRASH_SEED to repeat)`);
  const random = prng(seed);
  const home = tempDir(t);
  const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo']);
  fake.output('termux-telephony-deviceinfo', '{"phone_count": 1}');
  fake.mode('termux-sms-send', 'slow');
  const env = { ...fake.env, SMS_GATEWAY_HOME: home, FAKE_TERMUX_SLOW_SECONDS: '0.3' };
  const caller = '127.0.0.9';
  let key = '';
  const acknowledged = new Map<string, string>(); // messageId -> text
  let n = 0;

  for (let round = 0; round < 20; round++) {
    const gw = await startGateway(t, env, caller);
    if (!key) key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
    const killAt = Date.now() + 150 + random() * 1200;
    let killed = false;
    const sending = (async () => {
      while (!killed) {
        const text = `crash-loop message ${n++}`;
        try {
          const res = await httpGet('/api/sms/send', headers, caller, 'POST', JSON.stringify({ to: '+15550002222', message: text }));
          if (res.status === 200) acknowledged.set(JSON.parse(res.body).messageId, text);
          const retry = Number(res.headers['retry-after'] ?? 0);
          await sleep(res.status === 429 ? retry * 1000 : 1000 + random() * 100);
        } catch {
          return; // the process died under this request
        }
      }
    })();
    if (round % 2 === 0) {
      await sleep(Math.max(0, killAt - Date.now()));
    } else {
      // Aimed: let this round's first hand-off finish (acknowledged), wait for the second
      // to begin, then kill within its 0.3 s.
      const target = fake.callTimes('termux-sms-send').length + 2;
      const giveUp = Date.now() + 8000;
      while (fake.callTimes('termux-sms-send').length < target && Date.now() < giveUp) await sleep(5);
      await sleep(random() * 100);
    }
    killed = true;
    gw.proc.kill('SIGKILL');
    await gw.exited;
    await sending;
  }

  // A last, clean start: recovery runs, confirmations settle (no sms-list: unconfirmed).
  const gw = await startGateway(t, env, caller);
  const auth = { authorization: `Bearer ${key}` };
  type Rec = { id: string; body: string; status: string; reason: string | null };
  /** Every message in the history, page by page (not only the first 100). */
  const everything = async (): Promise<Rec[]> => {
    const all: Rec[] = [];
    for (let offset = 0; ; offset += 100) {
      const p = JSON.parse((await httpGet(`/api/messages?limit=100&offset=${offset}`, auth, caller)).body);
      all.push(...p.data);
      if (!p.pagination.hasNext) return all;
    }
  };
  let page = { data: [] as Rec[] };
  for (let i = 0; i < 150; i++) {
    page = { data: await everything() };
    if (!page.data.some((m) => m.status === 'queued')) break;
    await sleep(100);
  }
  t.ok(acknowledged.size >= 10, `${acknowledged.size} messages were acknowledged over 20 rounds`);
  const byId = new Map(page.data.map((m) => [m.id, m]));
  const lost = [...acknowledged.keys()].filter((id) => !byId.has(id));
  t.same(lost, [], 'every acknowledged message is in the history');
  for (const [id, text] of acknowledged) if (byId.get(id)?.body !== text) t.fail(`${id} has the wrong text`);
  t.equal(page.data.filter((m) => m.status === 'queued').length, 0, 'nothing stays queued');

  const handedTexts = fake.calls('termux-sms-send').map((c) => c.stdin.toString());
  const twice = handedTexts.filter((x, i) => handedTexts.indexOf(x) !== i);
  t.same(twice, [], 'no text was handed to termux-sms-send twice');
  const recorded = new Set(page.data.map((m) => m.body));
  t.same(handedTexts.filter((x) => !recorded.has(x)), [], 'every hand-off belongs to a recorded message');
  const interrupted = page.data.filter((m) => m.reason === 'interrupted').length;
  t.comment(`${page.data.length} recorded, ${handedTexts.length} handed off, ${interrupted} interrupted`);
  t.ok(interrupted > 0, `some kills landed during a hand-off (${interrupted} interrupted): the test saw the case it is about`);

  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
  const db = new Database(join(home, 'gateway.db'), { readonly: true });
  t.equal(db.pragma('integrity_check', { simple: true }), 'ok');
  db.close();
});
