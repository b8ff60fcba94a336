// Keyword rules (docs/receiving.md, keyword rules) through the real routes and the real inbox
// watcher reading the simulated inbox (what `simulate receive` writes): the rules API, the
// `keyword` of a received SMS in GET /api/inbox and its sms.received event, the reply through
// the queue (tags.rule, at most once), the loop and cost guard, opt-out keywords winning,
// and the counter in /metrics.
import t, { type Test } from 'tap';
import { appendSimulatedSms, simulatedSmsList } from '../../src/device/simulated-inbox.js';
import type { ReceivedEvent } from '../../src/store/event-record.js';
import { tempDir } from '../helpers/paths.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';

const ANNA = '+4915112345678';
const BOB = '+15551230001';

type Rule = { id: string; keyword: string; match: string; reply: string; from: string[] | null; createdAt: string };
type Message = { to: string; body: string; status: string; tags: Record<string, string> | null; sourceIp: string };

/** An app whose inbox watcher reads the simulated inbox; receive() simulates an SMS, polls and runs the queue. */
async function withRules(t: Test, opts: TestAppOptions = {}) {
  const home = tempDir(t);
  const a = await testApp(t, { inbox: true, home, inboxList: simulatedSmsList(home, () => 'UTC'), ...opts });
  await a.gateway.inbox.watcher.pollOnce(); // the baseline
  const heard: ReceivedEvent[] = [];
  a.gateway.events.on('sms.received', (e) => heard.push(e));
  const post = (body: unknown) => {
    a.clock.advance(200); // within the API's rate limit
    return a.app.inject({ method: 'POST', url: '/api/rules', headers: a.auth, payload: body as object });
  };
  const addRule = async (body: object): Promise<Rule> => {
    const res = await post(body);
    if (res.statusCode !== 201) throw new Error(`POST /api/rules: ${res.statusCode} ${res.body}`);
    return res.json().data as Rule;
  };
  const receive = async (from: string, body: string) => {
    appendSimulatedSms(home, { from, body }, a.clock.now());
    a.clock.advance(1000);
    await a.gateway.inbox.watcher.pollOnce();
    await a.gateway.sending.lane.runDue();
  };
  const messages = async () => (await a.get('/api/messages?limit=100')).json().data as Message[];
  const latest = async () =>
    (await a.get('/api/inbox?limit=1')).json().data[0] as { body: string; keyword: string | null };
  /** The last sms.received event announced (what webhooks and MQTT get). */
  const lastEvent = () => heard.at(-1)!;
  return { ...a, post, addRule, receive, messages, latest, lastEvent };
}

t.test('the rules API: list, add (201), remove (204, 404 unknown), validation', async (t) => {
  const a = await withRules(t);
  t.same((await a.get('/api/rules')).json(), { success: true, data: [] });
  const rule = await a.addRule({
    keyword: 'STATUS',
    match: 'prefix',
    reply: 'All fine.',
    from: ['+49 151 1234-5678', ANNA],
  });
  t.match(rule, {
    keyword: 'STATUS',
    match: 'prefix',
    reply: 'All fine.',
    from: [ANNA],
    createdAt: new Date(a.clock.now()).toISOString(),
  });
  t.match(rule.id, /^rule_[0-9a-z]{26}$/);
  const plain = await a.addRule({ keyword: 'ping', reply: '' });
  t.match(plain, { match: 'exact', reply: '', from: null }, 'match defaults to exact; from absent: anyone');
  t.same(
    ((await a.get('/api/rules')).json().data as Rule[]).map((r) => r.id),
    [rule.id, plain.id],
    'oldest first',
  );
  for (const bad of [
    { keyword: '', reply: 'x' },
    { keyword: 'TWO WORDS', reply: 'x' },
    { keyword: 'A'.repeat(21), reply: 'x' },
    { keyword: 'STATUS', reply: 'x'.repeat(481) },
    { keyword: 'STATUS', reply: 'x', match: 'contains' },
    { keyword: 'STATUS', reply: 'x', from: ['not a number'] },
    { keyword: 'STATUS', reply: 'x', from: [] },
    { keyword: 'STATUS' },
  ]) {
    const res = await a.post(bad);
    t.equal(res.statusCode, 400, JSON.stringify(bad).slice(0, 60));
    t.equal(res.json().error.code, 'invalid_request');
  }
  t.equal((await a.post({ keyword: 'STATUS', reply: 'x'.repeat(480) })).statusCode, 201, '480 characters are fine');
  const del = (id: string) => a.app.inject({ method: 'DELETE', url: `/api/rules/${id}`, headers: a.auth });
  t.equal((await del(rule.id)).statusCode, 204);
  const again = await del(rule.id);
  t.equal(again.statusCode, 404);
  t.equal(again.json().error.code, 'not_found');
  for (const id of ['wh_01jd0x4ps8m2k7c9qv3h5t6w8y', 'STATUS', '%20']) {
    const notAnId = await del(id);
    t.equal(notAnId.statusCode, 400, `${id}: not a rule id, as for messages and webhooks`);
    t.match(notAnId.json().error.message, /params\.id: must start with rule_/);
  }
  t.equal(((await a.get('/api/rules')).json().data as Rule[]).length, 2);
});

t.test('a reply that could never be sent is refused when the rule is added, naming body.reply', async (t) => {
  const a = await withRules(t);
  for (const reply of ['   ', '\u200b', '\n\t', '\ud83d']) {
    const res = await a.post({ keyword: 'STATUS', reply });
    t.equal(res.statusCode, 400, JSON.stringify(reply));
    t.equal(res.json().error.code, 'invalid_request');
    t.match(res.json().error.message, /body\.reply/, 'names the field');
  }
  t.same((await a.get('/api/rules')).json().data, [], 'nothing stored');
  t.equal((await a.post({ keyword: 'STATUS', reply: '' })).statusCode, 201, 'empty is still an event-only rule');
});

t.test('at most 50 rules: the 51st is 409 too_many_rules', async (t) => {
  const a = await withRules(t);
  for (let i = 0; i < 50; i++) await a.addRule({ keyword: `K${i}`, reply: '' });
  const res = await a.post({ keyword: 'ONEMORE', reply: '' });
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'too_many_rules');
  t.equal(((await a.get('/api/rules')).json().data as Rule[]).length, 50);
});

t.test('a rule STATUS answers a simulated "status" once, not a second time within 10 minutes', async (t) => {
  const a = await withRules(t);
  const rule = await a.addRule({ keyword: 'STATUS', match: 'prefix', reply: 'All fine at home.' });
  await a.receive(ANNA, ' status garage ');
  t.equal((await a.latest()).keyword, 'STATUS', 'GET /api/inbox carries the keyword');
  t.equal(a.lastEvent().data.keyword, 'STATUS', 'and the sms.received event');
  t.match(
    await a.messages(),
    [{ to: ANNA, body: 'All fine at home.', status: 'sent', tags: { rule: rule.id }, sourceIp: 'rule' }],
    'queued, sent, tagged',
  );
  t.same(
    a.handoffs.map((h) => h.number),
    [ANNA],
  );
  await a.clock.tick(9 * 60_000);
  await a.receive(ANNA, 'STATUS');
  t.equal((await a.latest()).keyword, 'STATUS', 'it still matches');
  t.equal((await a.messages()).length, 1, 'not answered a second time within 10 minutes');
  await a.clock.tick(60_000);
  await a.receive(ANNA, 'Status');
  t.equal((await a.messages()).length, 2, 'answered again after 10 minutes');
  await a.receive(BOB, 'statuses');
  t.equal((await a.latest()).keyword, null, '"statuses" is no STATUS');
  t.equal(a.lastEvent().data.keyword, null);
  const metrics = (await a.get('/metrics')).body;
  t.match(metrics, /^sms_gateway_rule_replies_total 2$/m, 'the counter of rule replies');
  t.match(metrics, /sms_gateway_auto_replies_skipped_total\{reason="sender_limit"\} 1/, 'the skip counted');
});

t.test('a rule reply is queued once per received SMS, also when its event is heard twice', async (t) => {
  const a = await withRules(t);
  await a.addRule({ keyword: 'PING', reply: 'pong' });
  await a.receive(ANNA, 'ping');
  const event = a.lastEvent();
  await a.clock.tick(11 * 60_000); // past the guard: only the idempotency key stops it
  a.gateway.events.emit('sms.received', event);
  await a.gateway.sending.lane.runDue();
  t.equal((await a.messages()).length, 1);
});

t.test(
  'from restricts who triggers a rule; an event-only rule sends nothing; the guard skips non-dialable senders',
  async (t) => {
    const a = await withRules(t);
    await a.addRule({ keyword: 'DISARM', reply: 'Disarmed.', from: [ANNA] });
    await a.addRule({ keyword: 'ARRIVED', reply: '' });
    await a.addRule({ keyword: 'INFO', match: 'prefix', reply: 'Open 9 to 5.' });
    await a.receive(BOB, 'disarm');
    t.equal((await a.latest()).keyword, null, 'not a listed sender: no keyword');
    await a.receive('+49 151 1234 5678', 'Disarm');
    t.equal((await a.latest()).keyword, 'DISARM');
    await a.receive(BOB, 'arrived');
    t.equal((await a.latest()).keyword, 'ARRIVED', 'an event-only rule sets the keyword');
    await a.receive('ACME', 'info please');
    await a.receive('12345', 'info please');
    t.equal((await a.latest()).keyword, 'INFO');
    t.match(await a.messages(), [{ to: ANNA, body: 'Disarmed.' }], 'only the listed sender got an answer');
    const metrics = (await a.get('/metrics')).body;
    t.match(metrics, /sms_gateway_auto_replies_skipped_total\{reason="not_dialable"\} 1/, 'ACME');
    t.match(metrics, /sms_gateway_auto_replies_skipped_total\{reason="number_type"\} 1/, 'the short code');
  },
);

t.test('opt-out keywords win over rules; a listed sender gets no rule reply', async (t) => {
  const a = await withRules(t, { optOut: { enabled: true, optOutReply: '' } });
  await a.addRule({ keyword: 'STOP', reply: 'rule says stop' });
  await a.addRule({ keyword: 'STATUS', reply: 'All fine.' });
  await a.receive(ANNA, 'STOP');
  t.equal((await a.latest()).keyword, null, 'STOP is the opt-out keyword, not the rule');
  t.same(
    ((await a.get('/api/opt-outs')).json().data as { number: string }[]).map((e) => e.number),
    [ANNA],
  );
  await a.receive(ANNA, 'status');
  t.equal((await a.latest()).keyword, 'STATUS');
  t.same(await a.messages(), [], 'nothing queued: no rule reply to STOP, none to a listed number');
});

t.test('two gateways whose rules answer each other: the loop dies', async (t) => {
  const PHONE_A = '+12015550001';
  const PHONE_B = '+12015550002';
  const a = await withRules(t);
  const b = await withRules(t, { clock: a.clock });
  await a.addRule({ keyword: 'HELLO', match: 'prefix', reply: 'Hello from A' });
  await b.addRule({ keyword: 'HELLO', match: 'prefix', reply: 'Hello from B' });
  let fedA = 0;
  let fedB = 0;
  await a.receive(PHONE_B, 'hello'); // someone at B's phone starts it
  for (let hop = 0; hop < 40; hop++) {
    // What each phone sent arrives at the other a minute later (what B sent, from PHONE_B, at A).
    await a.clock.tick(60_000);
    for (const h of a.handoffs.slice(fedB)) if (h.number === PHONE_B) await b.receive(PHONE_A, h.text);
    fedB = a.handoffs.length;
    for (const h of b.handoffs.slice(fedA)) if (h.number === PHONE_A) await a.receive(PHONE_B, h.text);
    fedA = b.handoffs.length;
  }
  t.equal(a.handoffs.length, 1, 'A answered once');
  t.equal(b.handoffs.length, 1, 'B answered once');
  t.match(
    (await a.get('/metrics')).body,
    /sms_gateway_auto_replies_skipped_total\{reason="sender_limit"\} 1/,
    "A skipped B's answer",
  );
});
