// What 0.4 added survives the upgrade (issue 48): the 0.4.0 home (test/fixtures/homes/0.4.0/,
// written by 0.4.0's own code) opened by today's code keeps its opt-out list (the numbers that
// opted out stay out, by the API or by STOP; the one taken off again stays off), its keyword
// rules (listed, and still triggered), its tags (on sent and queued records, and in the reply
// correlation), and its message queued to a number that opted out later is never handed off.
import t from 'tap';
import { appendSimulatedSms } from '../../src/device/simulated-inbox.js';
import { fixtureHome, openWithToday } from '../helpers/fixture-homes.js';

const VERSION = '0.4.0';
const START_AFTER_MS = 60_000;

t.test('the opt-out list is kept and honoured; the number taken off again stays off', async (t) => {
  const { home, made } = fixtureHome(t, VERSION);
  const a = await openWithToday(t, home, Date.parse(made.madeAt) + START_AFTER_MS);
  const listed = (await a.get('/api/opt-outs?limit=100')).json() as {
    data: { number: string; by: string; optedOut: boolean }[];
    pagination: { total: number };
  };
  t.equal(listed.pagination.total, 2, 'two numbers opted out: one by the API, one by STOP');
  t.same(
    listed.data.map((o) => ({ number: o.number, by: o.by })),
    made.optOuts,
    'the same numbers, by the same means, newest first',
  );
  for (const { number } of made.optOuts!) {
    const r = await a.send({ to: number, message: 'after the upgrade' });
    t.equal(r.statusCode, 409, `a send to ${number} is refused`);
    t.equal(r.json().error.code, 'recipient_opted_out');
  }
  t.same(a.handoffs, [], 'nothing handed off to a number that opted out');
  for (const number of made.optedBackIn!) {
    const r = await a.send({ to: number, message: 'after the upgrade' });
    t.equal(r.statusCode, 200, `${number}, taken off the list in 0.4.0, is sent to`);
  }
  t.equal(a.handoffs.length, made.optedBackIn!.length);
});

t.test('the message queued to a number that opted out later fails at its turn, never handed off', async (t) => {
  const { home, made } = fixtureHome(t, VERSION);
  const a = await openWithToday(t, home, Date.parse(made.madeAt) + START_AFTER_MS);
  await a.clock.tick(Date.parse(made.sendAt!) - a.clock.now() + 60_000);
  await a.clock.tick(2 * 60 * 60_000);
  const [blocked] = made.blocked!;
  const record = (await a.get(`/api/messages/${blocked!.id}`)).json().data;
  t.match(record, { status: 'failed', reason: 'opted_out', to: blocked!.to, tags: blocked!.tags });
  t.notOk(
    a.handoffs.some((h) => h.number === blocked!.to),
    'never handed off',
  );
  t.equal(a.handoffs.length, made.queued.length, 'the other queued messages went, once each');
});

t.test('the keyword rules are kept, in order, and still trigger', async (t) => {
  const { home, made } = fixtureHome(t, VERSION);
  const a = await openWithToday(t, home, Date.parse(made.madeAt) + START_AFTER_MS);
  const rules = (await a.get('/api/rules')).json().data as unknown[];
  t.equal(rules.length, 2, 'both rules');
  t.match(rules, made.rules, 'each rule as 0.4.0 made it: id, keyword, match, reply, from, createdAt');

  const [status, ping] = made.rules!;
  await a.gateway.inbox.watcher.pollOnce(); // the inbox 0.4.0 read: nothing is new
  appendSimulatedSms(home, { from: ping!.from![0]!, body: 'PING' }, a.clock.now());
  appendSimulatedSms(home, { from: '+4915112345670', body: `${status!.keyword.toLowerCase()} please` }, a.clock.now());
  await a.clock.tick(1000);
  await a.gateway.inbox.watcher.pollOnce();
  const inbox = (await a.get('/api/inbox?limit=2')).json().data as { from: string; keyword: string | null }[];
  t.same(
    inbox.map((m) => [m.from, m.keyword]).sort(),
    [
      ['+15550007001', 'PING'],
      ['+4915112345670', 'STATUS'],
    ],
    'each received SMS carries the keyword of the rule it triggered',
  );
  await a.clock.tick(60_000);
  t.same(
    a.handoffs.map((h) => [h.number, h.text]),
    [['+4915112345670', status!.reply]],
    'the STATUS rule replied once; the event-only PING rule sent nothing',
  );
});

t.test('tags are kept on sent and queued records and in the reply correlation', async (t) => {
  const { home, made } = fixtureHome(t, VERSION);
  const a = await openWithToday(t, home, Date.parse(made.madeAt) + START_AFTER_MS);
  const [tagged] = made.sent;
  t.same((await a.get(`/api/messages/${tagged!.id}`)).json().data.tags, tagged!.tags, 'the sent message');
  const answer = made.received.find((m) => m.inReplyTo);
  t.same(answer?.inReplyTo, { id: tagged!.id, tags: tagged!.tags }, 'the fixture has a reply to it');

  await a.gateway.inbox.watcher.pollOnce();
  appendSimulatedSms(home, { from: tagged!.to, body: 'another reply' }, a.clock.now());
  await a.clock.tick(1000);
  await a.gateway.inbox.watcher.pollOnce();
  const [latest] = (await a.get('/api/inbox?limit=1')).json().data as { body: string; inReplyTo: unknown }[];
  t.equal(latest?.body, 'another reply');
  t.same(latest?.inReplyTo, { id: tagged!.id, tags: tagged!.tags }, 'a new reply finds the tagged message');

  await a.clock.tick(Date.parse(made.sendAt!) - a.clock.now() + 60_000);
  for (const m of made.queued) {
    t.match((await a.get(`/api/messages/${m.id}`)).json().data, { status: 'sent', tags: m.tags }, `${m.id} sent`);
    t.same((await a.get(`/api/messages/${m.id}`)).json().data.tags, m.tags, 'with its tags');
  }
});
