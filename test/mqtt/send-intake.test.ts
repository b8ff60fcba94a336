// The MQTT intake's answers from the queue intake's outcomes and refusals, without a broker:
// accepted or replayed is acknowledged; a refusal for what the request is goes to the errors
// topic (the envelope, the topic, the id) and is acknowledged; storage_unavailable and
// queue_full are not acknowledged (the broker gives the message again).
import t from 'tap';
import { GatewayError } from '../../src/core/errors.js';
import { createSendIntake } from '../../src/mqtt/send-intake.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import { parseContacts } from '../../src/core/mqtt-settings.js';
import type { QueueOutcome } from '../../src/sms/outcomes.js';

function intake(answer: () => QueueOutcome, calls: { n: number } = { n: 0 }) {
  const published: { topic: string; body: unknown }[] = [];
  let queued = 0;
  const topics = topicsFor('sms-gateway', 'gw1');
  const it = createSendIntake({
    enqueue: {
      accept: () => {
        calls.n++;
        return answer();
      },
    },
    topics,
    contacts: [],
    publish: (topic, payload) => published.push({ topic, body: JSON.parse(payload) }) > 0,
    onQueued: () => queued++,
  });
  const handle = (body: unknown, retained = false) =>
    it.handle(topics.send, Buffer.from(JSON.stringify(body)), retained);
  return { handle, raw: it.handle, published, queued: () => queued, topics, calls };
}

const request = { to: '+15551230001', message: 'hi', id: 'k1' };

t.test('accepted and replayed outcomes are acknowledged, nothing on the errors topic', async (t) => {
  for (const outcome of [
    { kind: 'accepted', records: [] },
    { kind: 'earlier_answer', answer: { status: 202, body: { success: true, data: [] } } },
  ] as QueueOutcome[]) {
    const i = intake(() => outcome);
    await i.handle(request);
    t.equal(i.queued(), 1, outcome.kind);
    t.same(i.published, [], outcome.kind);
  }
});

t.test('a refusal for what the request is: the envelope on the errors topic, acknowledged', async (t) => {
  const i = intake(() => {
    throw new GatewayError('sms_disabled', 'Sending is switched off.');
  });
  await i.handle(request);
  t.same(i.published, [
    {
      topic: i.topics.errors,
      body: {
        success: false,
        smsSent: false,
        error: { code: 'sms_disabled', message: 'Sending is switched off.' },
        topic: i.topics.send,
        id: 'k1',
      },
    },
  ]);
  t.equal(i.queued(), 0);
});

t.test('storage_unavailable and queue_full are not acknowledged and not answered', async (t) => {
  for (const code of ['storage_unavailable', 'queue_full'] as const) {
    const i = intake(() => {
      throw new GatewayError(code, 'not now', { retryAfterSeconds: 60 });
    });
    await t.rejects(i.handle(request), { code }, code);
    t.same(i.published, [], code);
  }
});

t.test(
  'a message carrying the retain flag: retained_refused on the errors topic, acknowledged, never queued',
  async (t) => {
    const i = intake(() => ({ kind: 'accepted', records: [] }));
    await i.handle(request, true); // resolves: acknowledged, so the broker does not give it again
    t.equal(i.calls.n, 0, 'the queue intake never saw it');
    t.equal(i.queued(), 0);
    t.match(i.published, [
      {
        topic: i.topics.errors,
        body: {
          success: false,
          smsSent: false,
          error: { code: 'retained_refused', message: /retained/ },
          topic: i.topics.send,
          id: 'k1',
        },
      },
    ]);
    t.equal(i.published.length, 1);
    await i.raw(i.topics.send, Buffer.from('not json'), true);
    t.match(
      i.published[1],
      { body: { error: { code: 'retained_refused' }, topic: i.topics.send } },
      'refused even when it is no request at all',
    );
    t.equal(i.published[1]!.body && 'id' in (i.published[1]!.body as object), false, 'no id to name');
    t.equal(i.calls.n, 0);
    await i.handle(request, false);
    t.equal(i.calls.n, 1, 'the same request without the flag is taken');
  },
);

t.test('a payload over 16 KB: payload_too_large on the errors topic, acknowledged, never queued', async (t) => {
  const i = intake(() => ({ kind: 'accepted', records: [] }));
  const big = { to: '+15551230001', message: 'x'.repeat(16 * 1024), id: 'big' };
  await i.handle(big);
  t.equal(i.calls.n, 0);
  t.match(i.published, [
    {
      topic: i.topics.errors,
      body: {
        error: { code: 'payload_too_large', message: 'The payload is larger than 16 KB.' },
        topic: i.topics.send,
      },
    },
  ]);
  const exact = Buffer.alloc(16 * 1024, 0x20);
  await i.raw(i.topics.send, exact);
  t.match(
    i.published[1],
    { body: { error: { code: 'invalid_request' } } },
    '16 KB exactly is read (and refused for what it is)',
  );
});

t.test('the notify topic takes the contact as written in SMS_GATEWAY_CONTACTS, in any case', async (t) => {
  const contacts = parseContacts('Alice:+15551230001,Bob Smith:+15551230002');
  if (typeof contacts === 'string') throw new Error(contacts);
  const topics = topicsFor('sms-gateway', 'gw1');
  const sent: string[] = [];
  const published: string[] = [];
  const it = createSendIntake({
    enqueue: {
      accept: (req) => {
        sent.push(`${req.to as string} ${req.message}`);
        return { kind: 'accepted', records: [] };
      },
    },
    topics,
    contacts,
    publish: (_topic, payload) => published.push(payload) > 0,
  });
  for (const level of ['Alice', 'alice', 'ALICE', 'Bob Smith', 'bob smith', 'bob_smith', 'Bob_Smith']) {
    await it.handle(`sms-gateway/gw1/notify/${level}`, Buffer.from(level));
  }
  t.same(sent, [
    '+15551230001 Alice',
    '+15551230001 alice',
    '+15551230001 ALICE',
    '+15551230002 Bob Smith',
    '+15551230002 bob smith',
    '+15551230002 bob_smith',
    '+15551230002 Bob_Smith',
  ]);
  // The topic Home Assistant's discovery config names (its command_topic) keeps working.
  for (const c of contacts) await it.handle(topics.notify(c.slug), Buffer.from('from HA'));
  t.same(sent.slice(-2), ['+15551230001 from HA', '+15551230002 from HA']);
  t.same(published, [], 'nothing refused');
  await it.handle('sms-gateway/gw1/notify/Carol', Buffer.from('x'));
  const noCarol = /no contact "Carol" in SMS_GATEWAY_CONTACTS/;
  t.match(JSON.parse(published[0]!), { error: { code: 'invalid_request', message: noCarol } });
});

t.test('priority is taken as POST /api/messages takes it', async (t) => {
  const seen: unknown[] = [];
  const topics = topicsFor('sms-gateway', 'gw1');
  const it = createSendIntake({
    enqueue: {
      accept: (req) => {
        seen.push(req);
        return { kind: 'accepted', records: [] };
      },
    },
    topics,
    contacts: [],
    publish: () => true,
    onQueued: () => undefined,
  });
  await it.handle(topics.send, Buffer.from(JSON.stringify({ ...request, priority: 7 })), false);
  t.match(seen, [{ to: '+15551230001', priority: 7 }]);
});
