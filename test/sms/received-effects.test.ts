// What a received SMS changes (its STOP or START, its confirmation, a rule's reply) is applied
// in the transaction that stores it, so no fault between storing and acting loses or doubles
// it: a storage fault right after the commit (the database read-only while a STOP is read),
// a crash there and a restart, and a restart inside the auto-reply limits.
import t from 'tap';
import { DEFAULT_OPT_IN_REPLY, DEFAULT_OPT_OUT_REPLY } from '../../src/core/opt-out-settings.js';
import { withSimulatedInbox } from '../helpers/received-sms.js';

const ANNA = '+4915112345678';
const HOOK = 'http://127.0.0.1:9/hook';

const READ_ONLY = 'the storage read-only while a STOP is read: listed once storage returns, nothing ever sent to it';

t.test(READ_ONLY, async (t) => {
  const a = await withSimulatedInbox(t, { optOut: { enabled: true, optOutReply: '' }, webhookUrls: [HOOK] });
  const sendAt = new Date(a.clock.now() + 3600_000).toISOString();
  const later = await a.queue({ to: ANNA, message: 'your appointment', sendAt });
  t.equal(later.statusCode, 202);
  // Right after the commit that stored the SMS (its event is due for the webhook), the disk refuses writes.
  let readOnly = false;
  a.gateway.events.on('delivery.due', (e) => {
    if (e.type !== 'sms.received') return;
    a.db.pragma('query_only = ON');
    readOnly = true;
  });
  await a.receive(ANNA, 'STOP');
  t.ok(readOnly, 'the storage refused writes after the commit');
  a.db.pragma('query_only = OFF');
  await a.gateway.inbox.watcher.pollOnce();
  t.same(await a.listed(), [ANNA], 'on the list');
  await a.clock.tick(3600_000);
  await a.gateway.sending.lane.runDue();
  t.same(a.handoffs, [], 'nothing was ever handed off to it');
  t.match(await a.messages(), [{ to: ANNA, status: 'failed', reason: 'opted_out' }]);
});

const CRASH = 'a crash between the commit and its listeners: after the restart the STOP holds and is confirmed once';

t.test(CRASH, async (t) => {
  const a = await withSimulatedInbox(t, { optOut: { enabled: true }, webhookUrls: [HOOK] });
  // The process dies right after the commit: nothing it does after that reaches the disk.
  a.gateway.events.on('delivery.due', (e) => {
    if (e.type === 'sms.received') a.db.pragma('query_only = ON');
  });
  await a.receive(ANNA, 'STOP');
  await a.gateway.stopBackground(0);
  const b = await a.restart();
  t.same(await b.listed(), [ANNA], 'on the list');
  const confirmation = { to: ANNA, body: DEFAULT_OPT_OUT_REPLY, origin: 'opt_out_reply' };
  t.match(await b.messages(), [confirmation], 'one confirmation');
  await b.gateway.inbox.watcher.pollOnce();
  await b.gateway.sending.lane.runDue();
  t.equal((await b.messages()).length, 1, 'read again: still one');
});

t.test('a rule reply survives a crash after the commit as well', async (t) => {
  const a = await withSimulatedInbox(t, { webhookUrls: [HOOK] });
  const payload = { keyword: 'HOURS', reply: '9 to 5' };
  const rule = await a.app.inject({ method: 'POST', url: '/api/rules', headers: a.auth, payload });
  t.equal(rule.statusCode, 201);
  a.gateway.events.on('delivery.due', (e) => {
    if (e.type === 'sms.received') a.db.pragma('query_only = ON');
  });
  await a.receive(ANNA, 'hours');
  const b = await a.restart();
  t.match(await b.messages(), [{ to: ANNA, body: '9 to 5', origin: 'rule_reply' }]);
});

t.test('a restart does not reset the auto-reply limits', async (t) => {
  const a = await withSimulatedInbox(t, { optOut: { enabled: true } });
  await a.receive(ANNA, 'STOP');
  t.match(await a.messages(), [{ to: ANNA, body: DEFAULT_OPT_OUT_REPLY }]);
  const b = await a.restart(60_000);
  await b.receive(ANNA, 'START');
  t.same(await b.listed(), [], 'the START took effect');
  t.equal((await b.messages()).length, 1, 'but its confirmation, a minute after the last answer, is skipped');
  await b.clock.tick(10 * 60_000);
  await b.receive(ANNA, 'STOP');
  await b.receive(ANNA, 'START');
  t.notOk(
    (await b.messages()).some((m) => m.body === DEFAULT_OPT_IN_REPLY),
    'ten minutes on: the STOP is answered, the START right after it is not',
  );
  const c = await b.restart(60_000);
  for (let i = 0; i < 40; i++) await c.receive(`+1201555${String(i).padStart(4, '0')}`, 'STOP');
  const d = await c.restart(60_000);
  await d.receive('+12015559999', 'STOP');
  const answers = (await d.messages()).filter((m) => m.origin === 'opt_out_reply');
  t.equal(answers.length, 30, 'at most 30 an hour in all, across restarts');
});
