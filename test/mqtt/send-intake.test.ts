// The MQTT intake's answers from the queue intake's outcomes and refusals, without a broker:
// accepted or replayed is acknowledged; a refusal for what the request is goes to the errors
// topic (the envelope, the topic, the id) and is acknowledged; storage_unavailable and
// queue_full are not acknowledged (the broker gives the message again).
import t from 'tap';
import { GatewayError } from '../../src/core/errors.js';
import { createSendIntake } from '../../src/mqtt/send-intake.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import type { QueueOutcome } from '../../src/sms/outcomes.js';

function intake(answer: () => QueueOutcome) {
  const published: { topic: string; body: unknown }[] = [];
  let queued = 0;
  const topics = topicsFor('sms-gateway', 'gw1');
  const it = createSendIntake({
    enqueue: { accept: () => answer() },
    topics,
    contacts: [],
    publish: (topic, payload) => published.push({ topic, body: JSON.parse(payload) }) > 0,
    onQueued: () => queued++,
  });
  const handle = (body: unknown) => it.handle(topics.send, Buffer.from(JSON.stringify(body)));
  return { handle, published, queued: () => queued, topics };
}

const request = { to: '+15551230001', message: 'hi', id: 'k1' };

t.test('accepted and replayed outcomes are acknowledged, nothing on the errors topic', async (t) => {
  for (const outcome of [
    { kind: 'accepted', records: [] },
    { kind: 'replayed', answer: { status: 202, body: { success: true, data: [] } } },
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
      body: { success: false, smsSent: false, error: { code: 'sms_disabled', message: 'Sending is switched off.' }, topic: i.topics.send, id: 'k1' },
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
