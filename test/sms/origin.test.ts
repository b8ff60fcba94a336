// Every message records where it came from (`origin`): the synchronous send (api), the queue
// (queue), MQTT, the alert receivers (alert) and each automatic answer (rule_reply,
// opt_out_reply, opt_in_reply, help_reply); a home from 0.4 is given the origin of each
// message once, from what 0.4 stored; and the opt-out list's exemption asks the origin.
import t, { type Test } from 'tap';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { appendSimulatedSms, simulatedSmsList } from '../../src/device/simulated-inbox.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { MIGRATIONS_0_4 } from '../../src/store/migrations-0-4.js';
import { alertmanagerPayload, amAlert } from '../fixtures/alert-payloads.js';
import { tempDir } from '../helpers/paths.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';

const ANNA = '+4915112345678';

type Row = {
  id: string;
  to: string;
  body: string;
  origin: string;
  sourceIp: string;
  status: string;
  reason: string | null;
};

async function withInbox(t: Test, opts: TestAppOptions = {}, home = tempDir(t)) {
  const a = await testApp(t, { inbox: true, home, inboxList: simulatedSmsList(home, () => 'UTC'), ...opts });
  await a.gateway.inbox.watcher.pollOnce(); // the baseline
  const receive = async (from: string, body: string) => {
    appendSimulatedSms(home, { from, body }, a.clock.now());
    a.clock.advance(1000);
    await a.gateway.inbox.watcher.pollOnce();
    await a.gateway.sending.lane.runDue();
  };
  const messages = async () => (await a.get('/api/messages?limit=100')).json().data as Row[];
  return { ...a, receive, messages };
}

t.test('each door records its origin', async (t) => {
  const a = await testApp(t);
  t.equal((await a.send({ to: '+15550001001', message: 'now' })).statusCode, 200);
  const queued = await a.queue({ to: '+15550001002', message: 'later' });
  t.equal(queued.json().data[0].origin, 'queue', 'POST /api/messages: queue');
  const alert = await a.app.inject({
    method: 'POST',
    url: '/api/receivers/alertmanager?to=%2B15550001003',
    remoteAddress: '192.168.1.30',
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(alertmanagerPayload([amAlert(1)])),
  });
  t.equal(alert.statusCode, 200, alert.body);
  const byTo = new Map(((await a.get('/api/messages?limit=10')).json().data as Row[]).map((r) => [r.to, r]));
  t.equal(byTo.get('+15550001001')?.origin, 'api', 'POST /api/sms/send: api');
  t.equal(byTo.get('+15550001003')?.origin, 'alert', 'an alert receiver: alert');
  t.equal(byTo.get('+15550001003')?.sourceIp, '192.168.1.30', 'the source address stays the caller');
});

t.test('automatic answers: opt_out_reply, opt_in_reply, help_reply, rule_reply', async (t) => {
  const a = await withInbox(t, { optOut: { enabled: true, helpReply: 'Texts from ACME.' } });
  const rule = await a.app.inject({
    method: 'POST',
    url: '/api/rules',
    headers: a.auth,
    payload: { keyword: 'HOURS', reply: '9 to 5' },
  });
  t.equal(rule.statusCode, 201);
  await a.receive(ANNA, 'HELP');
  await a.clock.tick(11 * 60_000);
  await a.receive(ANNA, 'STOP');
  await a.clock.tick(11 * 60_000);
  await a.receive(ANNA, 'START');
  await a.clock.tick(11 * 60_000);
  await a.receive(ANNA, 'hours');
  t.same((await a.messages()).map((m) => m.origin).reverse(), [
    'help_reply',
    'opt_out_reply',
    'opt_in_reply',
    'rule_reply',
  ]);
});

t.test(
  'the opt-out exemption asks the origin: a caller whose Idempotency-Key looks like an answer is blocked',
  async (t) => {
    const a = await testApp(t);
    await a.app.inject({ method: 'POST', url: '/api/opt-outs', headers: a.auth, payload: { number: ANNA } });
    const res = await a.queue({ to: ANNA, message: 'you are unsubscribed' }, { 'idempotency-key': 'opt-out:evt_1' });
    t.match(res.json().data[0], { status: 'failed', reason: 'opted_out', origin: 'queue' });
  },
);

/** A 0.4 home: the schema of 0.4 and the rows its code wrote, each kind once. */
function home04(t: Test): string {
  const home = tempDir(t);
  const db = new Database(join(home, 'gateway.db'));
  const upTo04 = MIGRATIONS.slice(0, MIGRATIONS.indexOf(MIGRATIONS_0_4.at(-1)!) + 1);
  db.exec(upTo04.join('\n'));
  db.pragma(`user_version = ${upTo04.length}`);
  const insert = db.prepare(`
    INSERT INTO messages (id, to_number, send_to, body, segments, encoding, sim_slot, status, source_ip, created_at,
      updated_at, stats_day, idempotency_key, via, due_at)
    VALUES (@id, '+15550002000', '+15550002000', 'x', 1, 'gsm7', 1, 'sent', @sourceIp, @at, @at, '2026-11-21', @key, @via, @at)`);
  const rows: [string, string, string | null, string][] = [
    ['msg_sync', '192.168.1.20', null, 'sync'],
    ['msg_queue', '192.168.1.20', 'caller-key', 'queue'],
    ['msg_mqtt', 'mqtt', null, 'queue'],
    ['msg_alert', '192.168.1.30', 'alert:abc:1', 'queue'],
    ['msg_stop', 'opt-out', 'opt-out:evt_1', 'queue'],
    ['msg_start', 'opt-out', 'opt-in:evt_2', 'queue'],
    ['msg_rule', 'rule', 'rule:evt_3:rule_1', 'queue'],
  ];
  rows.forEach(([id, sourceIp, key, via], i) =>
    insert.run({ id, sourceIp, key, via, at: Date.UTC(2026, 10, 21, 11) + i }),
  );
  db.close();
  return home;
}

t.test('a home from 0.4: each message is given its origin once, from what 0.4 stored', async (t) => {
  const a = await testApp(t, { home: home04(t) });
  const origins = Object.fromEntries(
    ((await a.get('/api/messages?limit=10')).json().data as Row[]).map((r) => [r.id, r.origin]),
  );
  t.same(origins, {
    msg_sync: 'api',
    msg_queue: 'queue',
    msg_mqtt: 'mqtt',
    msg_alert: 'alert',
    msg_stop: 'opt_out_reply',
    msg_start: 'opt_in_reply',
    msg_rule: 'rule_reply',
  });
  const caller = await a.queue({ to: '+15550002001', message: 'mine' }, { 'idempotency-key': 'alert:abc:1' });
  t.equal(caller.statusCode, 202, "the 0.4 alert's key moved to the gateway's own space: a caller's is a new request");
  const again = await a.queue({ to: '+15550002001', message: 'mine' }, { 'idempotency-key': 'caller-key' });
  t.equal(again.statusCode, 400, "a caller's key from 0.4 stays the caller's (another request under it is refused)");
});
