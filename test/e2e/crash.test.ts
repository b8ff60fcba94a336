// Crash during a hand-off: the real gateway process, a fake termux-sms-send on PATH,
// SIGKILL while the fake hangs, then a restart. Nothing acknowledged is lost, nothing is
// handed off twice; the restart ends the hung hand-off's process group (its grandchild too)
// and, not finding the message in the phone's SMS store within 30 s, settles it
// failed/interrupted.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, fakeTermux, holdPort8080, httpGet, isAlive, startGateway, tempDir } from '../helper.js';

t.test('kill -9 during a slow hand-off, then restart', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const fake = fakeTermux(t, ['termux-sms-send', 'termux-telephony-deviceinfo', 'termux-sms-list']);
  fake.output('termux-telephony-deviceinfo', '{"phone_count": 2}');
  // The phone's sent box, as sent-box confirmation will read it.
  const sentBox = ['first', 'second'].map((body, i) => ({ threadid: 1, type: 'sent', read: true, address: '+15550001111', number: '+15550001111', received: null, body, _id: 100 + i }));
  fake.output('termux-sms-list', JSON.stringify(sentBox));
  const env = { ...fake.env, SMS_GATEWAY_HOME: home };
  const caller = '127.0.0.5';
  let gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const post = (message: string) => httpGet('/api/sms/send', headers, caller, 'POST', JSON.stringify({ to: '+15550001111', message }));

  const health = JSON.parse((await httpGet('/health', {}, caller)).body);
  t.equal(health.mode, 'real', 'termux-sms-send on PATH means real mode');

  const acknowledged: string[] = [];
  for (const message of ['first', 'second']) {
    const res = await post(message);
    t.equal(res.status, 200, message);
    acknowledged.push(JSON.parse(res.body).messageId);
    await sleep(1050); // the 1 s spacing, on the real clock
  }

  fake.mode('termux-sms-send', 'hang');
  const third = post('third').catch(() => undefined); // the connection dies with the process
  for (let i = 0; i < 200 && fake.calls('termux-sms-send').length < 3; i++) await sleep(25);
  t.equal(fake.calls('termux-sms-send').length, 3, 'the third hand-off has begun');
  // Kill once the hung hand-off has its grandchild and the gateway has had time to record
  // the hand-off's process group (it commits that right after the spawn).
  for (let i = 0; i < 200 && !fake.calls('termux-sms-send')[2]?.grandchild; i++) await sleep(25);
  await sleep(300);
  gw.proc.kill('SIGKILL');
  await gw.exited;
  await third;
  const grandchild = fake.calls('termux-sms-send')[2]!.grandchild;
  t.teardown(() => {
    if (grandchild && isAlive(grandchild)) process.kill(grandchild, 'SIGKILL');
  });

  fake.mode('termux-sms-send', 'ok');
  t.ok(grandchild && isAlive(grandchild), 'the hung hand-off outlived the gateway');
  gw = await startGateway(t, env, caller);
  for (let i = 0; i < 100 && isAlive(grandchild!); i++) await sleep(20);
  t.notOk(isAlive(grandchild!), 'the restart ended what was left of it');
  // Handed-off messages stay queued until the sent box confirms them (resumed at start);
  // the interrupted one is looked for there for 30 s.
  let list = { pagination: { total: 0 }, data: [] as { id: string; body: string; status: string; reason: string | null }[] };
  for (let i = 0; i < 450; i++) {
    list = JSON.parse((await httpGet('/api/messages?limit=100', { authorization: headers.authorization }, caller)).body);
    if (!list.data.some((m) => m.status === 'queued')) break;
    await sleep(100);
  }
  t.equal(list.pagination.total, 3, 'every accepted message is in history');
  const byBody = Object.fromEntries(list.data.map((m) => [m.body, m])) as Record<string, (typeof list.data)[number]>;
  for (const id of acknowledged) t.ok(list.data.some((m) => m.id === id), `acknowledged ${id} survived`);
  t.same([byBody.first!.status, byBody.first!.reason], ['sent', null], 'confirmed in the sent box');
  t.same([byBody.second!.status, byBody.second!.reason], ['sent', null]);
  t.equal(byBody.third!.status, 'failed');
  t.equal(byBody.third!.reason, 'interrupted');
  t.equal(list.data.filter((m) => m.status === 'queued').length, 0, 'nothing stays queued');
  await sleep(500);
  t.equal(fake.calls('termux-sms-send').length, 3, 'the interrupted message was not handed off again');
  const stats = JSON.parse((await httpGet('/api/stats', { authorization: headers.authorization }, caller)).body);
  t.same(stats.data.allTime, { accepted: 3, sent: 2, failed: 1, cancelled: 0, queued: 0, segments: 3, billedSegments: 2 });
  t.match(gw.output(), /"result":"killed","msg":"an interrupted hand-off's process group"/);
  t.match(gw.output(), /hand-offs interrupted by a stop: looking for them in the phone's SMS store/);
  t.match(gw.output(), /"status":"failed","reason":"interrupted","msg":"sms confirmation settled"/);
  t.notMatch(gw.output(), /first|second|third/, 'no message body in the log');
});
