// Tags (docs/receiving.md, replies) through the real routes: accepted on POST /api/sms/send and
// POST /api/messages, stored and returned in every record (the history, the lookup, the
// sms.sent event), `{}` when none; invalid tags are 400 invalid_request naming the key;
// tags are part of the Idempotency-Key comparison (key order does not matter). And the
// MQTT send payload: invalid tags answered on the errors topic, valid ones queued.
import t from 'tap';
import { createSendIntake } from '../../src/mqtt/send-intake.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import { testApp } from '../helpers/test-app.js';

t.test('sync send: tags stored, in the record and the history', async (t) => {
  const a = await testApp(t);
  const res = await a.send({
    to: '+15550001',
    message: 'Alarm. Reply 1 to disarm',
    tags: { alarm: 'garage', 'zone.id': '7' },
  });
  t.equal(res.statusCode, 200, res.body);
  const id = res.json().messageId as string;
  const one = (await a.get(`/api/messages/${id}`)).json().data;
  t.same(one.tags, { alarm: 'garage', 'zone.id': '7' });
  const list = (await a.get('/api/messages')).json().data;
  t.same(list[0].tags, { alarm: 'garage', 'zone.id': '7' });
});

t.test('the sms.sent event carries the tags', async (t) => {
  const a = await testApp(t, { webhookUrls: ['http://127.0.0.1:9/hook'] });
  const res = await a.send({ to: '+15550001', message: 'hello', tags: { order: '1042' } });
  t.equal(res.statusCode, 200, res.body);
  const rows = a.db.prepare(`SELECT record AS body FROM webhook_events WHERE type = 'sms.sent'`).all() as {
    body: string;
  }[];
  t.equal(rows.length, 1);
  t.same((JSON.parse(rows[0]!.body) as { data: { tags: unknown } }).data.tags, { order: '1042' });
});

t.test('queue: each record carries the tags; no tags is {}', async (t) => {
  const a = await testApp(t);
  const res = await a.queue({ to: ['+15550001', '+15550002'], message: 'Reply C to confirm', tags: { appt: 'a-17' } });
  t.equal(res.statusCode, 202, res.body);
  const records = res.json().data as { id: string; tags: unknown }[];
  t.same(
    records.map((r) => r.tags),
    [{ appt: 'a-17' }, { appt: 'a-17' }],
  );
  t.same((await a.get(`/api/messages/${records[1]!.id}`)).json().data.tags, { appt: 'a-17' });
  const plain = await a.queue({ to: '+15550003', message: 'no tags' });
  t.same(plain.json().data[0].tags, {}, 'none: an empty object');
});

t.test('invalid tags: 400 invalid_request naming the key, nothing recorded', async (t) => {
  const a = await testApp(t);
  const nine = Object.fromEntries([...Array(9).keys()].map((i) => [`k${i}`, 'v']));
  const cases: [unknown, RegExp][] = [
    [{ 'bad key': 'x' }, /tags\.bad key: a tag name must be 1 to 32/],
    [{ ['k'.repeat(33)]: 'x' }, new RegExp(`tags\\.${'k'.repeat(33)}: a tag name`)],
    [{ note: 'x'.repeat(65) }, /tags\.note: a tag's value must be at most 64 characters/],
    [{ count: 3 }, /tags\.count: /],
    [nine, /tags: at most 8 tags/],
    [['a'], /tags/],
  ];
  for (const [tags, message] of cases) {
    for (const res of [
      await a.send({ to: '+15550001', message: 'hi', tags }),
      await a.queue({ to: '+15550001', message: 'hi', tags }),
    ]) {
      t.equal(res.statusCode, 400, JSON.stringify(tags));
      t.equal(res.json().error.code, 'invalid_request');
      t.match(res.json().error.message, message);
    }
  }
  t.equal((await a.get('/api/messages')).json().pagination.total, 0, 'nothing recorded');
  const eight = Object.fromEntries([...Array(8).keys()].map((i) => [`k${i}`, 'v'.repeat(64)]));
  t.equal(
    (await a.queue({ to: '+15550001', message: 'hi', tags: eight })).statusCode,
    202,
    '8 keys of 64 characters are fine',
  );
});

t.test('Idempotency-Key: tags are part of the request', async (t) => {
  const a = await testApp(t);
  const first = await a.queue(
    { to: '+15550001', message: 'hi', tags: { a: '1', b: '2' } },
    { 'idempotency-key': 'q1' },
  );
  t.equal(first.statusCode, 202);
  const sameOtherOrder = await a.queue(
    { to: '+15550001', message: 'hi', tags: { b: '2', a: '1' } },
    { 'idempotency-key': 'q1' },
  );
  t.equal(sameOtherOrder.statusCode, 202, 'the same tags in another order: the same request');
  t.same(sameOtherOrder.json().data[0].id, first.json().data[0].id, 'the first answer again');
  const other = await a.queue(
    { to: '+15550001', message: 'hi', tags: { a: '2', b: '2' } },
    { 'idempotency-key': 'q1' },
  );
  t.equal(other.statusCode, 400, 'other tags: another request');
  t.match(other.json().error.message, /Idempotency-Key/);

  const s1 = await a.send({ to: '+15550001', message: 'sync hi', tags: { a: '1' } }, { 'idempotency-key': 's1' });
  t.equal(s1.statusCode, 200);
  const s2 = await a.send({ to: '+15550001', message: 'sync hi' }, { 'idempotency-key': 's1' });
  t.equal(s2.statusCode, 400, 'the same send without its tags is another request');
  const s3 = await a.send({ to: '+15550001', message: 'sync hi', tags: { a: '1' } }, { 'idempotency-key': 's1' });
  t.equal(s3.json().messageId, s1.json().messageId, 'with them: the first answer');
  t.equal(a.handoffs.filter((h) => h.text === 'sync hi').length, 1, 'one hand-off');
});

t.test('MQTT send: tags queued with the message; invalid tags on the errors topic naming the key', async (t) => {
  const a = await testApp(t);
  const topics = topicsFor('sms-gateway', 'gw1');
  const published: { topic: string; body: { error?: { code: string; message: string } } }[] = [];
  const intake = createSendIntake({
    enqueue: a.gateway.sending.enqueue,
    topics,
    contacts: [],
    publish: (topic, payload) => published.push({ topic, body: JSON.parse(payload) as never }) > 0,
  });
  await intake.handle(
    topics.send,
    Buffer.from(JSON.stringify({ to: '+15550001', message: 'hi', tags: { ha: 'alarm' }, id: 'm1' })),
  );
  t.same(published, [], 'accepted');
  t.same((await a.get('/api/messages')).json().data[0].tags, { ha: 'alarm' });
  await intake.handle(
    topics.send,
    Buffer.from(JSON.stringify({ to: '+15550001', message: 'hi', tags: { 'no/slash': 'x' } })),
  );
  t.equal(published.length, 1);
  t.equal(published[0]!.topic, topics.errors);
  t.equal(published[0]!.body.error?.code, 'invalid_request');
  t.match(published[0]!.body.error?.message, /payload\.tags\.no\/slash: a tag name must be/);
});
