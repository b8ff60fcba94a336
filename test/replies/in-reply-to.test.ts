// inReplyTo (docs/receiving.md, replies) through the real app: a received SMS from a number sent
// to (status sent) within SMS_GATEWAY_REPLY_WINDOW_HOURS names the newest such message and
// its tags, in GET /api/inbox and in the sms.received event (the webhook's body, also what
// MQTT publishes); otherwise null. The inbox is a fake termux-sms-list (Ports inboxList).
import t, { type Test } from 'tap';
import { NEWEST_SENT_TO_SQL } from '../../src/store/message-reads.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';
import { fakeInbox } from '../helpers/fake-inbox.js';

async function withInbox(t: Test, opts: TestAppOptions = {}) {
  const inbox = fakeInbox();
  const a = await testApp(t, { webhookUrls: ['http://127.0.0.1:9/hook'], inboxList: inbox.list, ...opts });
  await a.gateway.inbox.watcher.pollOnce(); // the baseline
  const receive = async (from: string, body: string) => {
    inbox.receive(from, body, a.clock.now());
    a.clock.advance(1000);
    await a.gateway.inbox.watcher.pollOnce();
  };
  const latest = async () => (await a.get('/api/inbox?limit=1')).json().data[0] as { body: string; inReplyTo: unknown };
  const events = () =>
    (
      a.db
        .prepare(`SELECT record AS body FROM webhook_events WHERE type = 'sms.received' ORDER BY created_at`)
        .all() as {
        body: string;
      }[]
    ).map((r) => (JSON.parse(r.body) as { data: { body: string; inReplyTo: unknown } }).data);
  return { a, inbox, receive, latest, events };
}

t.test('a reply names the newest message sent to its number, with its tags', async (t) => {
  const { a, receive, latest, events } = await withInbox(t);
  const older = (await a.send({ to: '+1 555 0001', message: 'first', tags: { n: '1' } })).json().messageId as string;
  const newer = (
    await a.send({ to: '+15550001', message: 'Alarm. Reply 1 to disarm', tags: { alarm: 'garage' } })
  ).json().messageId as string;
  t.not(older, newer);
  await a.send({ to: '+15550002', message: 'someone else', tags: { other: 'x' } });
  await receive('+15550001', '1');
  const expected = { id: newer, tags: { alarm: 'garage' } };
  t.same((await latest()).inReplyTo, expected, 'GET /api/inbox');
  t.same(events().at(-1)?.inReplyTo, expected, 'the sms.received event (webhook and MQTT body)');
  await receive('1555-0001', 'without the plus');
  t.same((await latest()).inReplyTo, expected, 'the same number without + and with a dash');
  await receive('+15550009', 'a stranger');
  t.equal((await latest()).inReplyTo, null, 'never sent to: null');
  t.equal(events().at(-1)?.inReplyTo, null);
  await receive('DHL', 'a name');
  t.equal((await latest()).inReplyTo, null, 'an alphanumeric sender: null');
});

t.test('no tags: {}; a failed message is no question; the window bounds it', async (t) => {
  const failing = { ok: true as boolean };
  const { a, receive, latest } = await withInbox(t, {
    sender: {
      send: () =>
        Promise.resolve(
          failing.ok
            ? { ok: true as const }
            : { ok: false as const, reason: 'termux_api_error' as const, detail: 'no' },
        ),
    },
  });
  const sent = (await a.send({ to: '+15550001', message: 'plain' })).json().messageId as string;
  failing.ok = false;
  const failed = await a.send({ to: '+15550001', message: 'this one failed' });
  t.equal(failed.statusCode, 502, 'the second hand-off failed');
  await receive('+15550001', 'yes');
  t.same((await latest()).inReplyTo, { id: sent, tags: {} }, 'the newest sent, not the failed one; no tags is {}');
  a.clock.advance(24 * 3_600_000 - 5_000); // the send is now just under 24 h old
  await receive('+15550001', 'still');
  t.same((await latest()).inReplyTo, { id: sent, tags: {} }, 'inside 24 h');
  a.clock.advance(10_000);
  await receive('+15550001', 'too late');
  t.equal((await latest()).inReplyTo, null, 'past SMS_GATEWAY_REPLY_WINDOW_HOURS (24)');
});

t.test('SMS_GATEWAY_REPLY_WINDOW_HOURS=0: never a reply', async (t) => {
  const { a, receive, latest } = await withInbox(t, { replyWindowHours: 0 });
  await a.send({ to: '+15550001', message: 'hello', tags: { x: '1' } });
  await receive('+15550001', 'hi');
  t.equal((await latest()).inReplyTo, null);
});

t.test('the lookup goes through an index (cheap with 10 000 messages)', async (t) => {
  const { a } = await withInbox(t);
  const plan = a.db
    .prepare(`EXPLAIN QUERY PLAN ${NEWEST_SENT_TO_SQL}`)
    .all({ plain: '1', plus: '+1', since: 0, until: 1 }) as { detail: string }[];
  t.match(plan.map((p) => p.detail).join('\n'), /USING INDEX messages_sent_to/);
});

t.test(
  'a reply before the sent box confirms its message still names it (real mode: queued after the hand-off)',
  async (t) => {
    const { a, receive, latest } = await withInbox(t, { confirmSends: true });
    const id = (
      await a.send({ to: '+15550001', message: 'Alarm. Reply 1 to disarm', tags: { alarm: 'garage' } })
    ).json().messageId as string;
    const row = a.db.prepare('SELECT status, handed_off_at AS handedOffAt FROM messages WHERE id = ?').get(id) as {
      status: string;
      handedOffAt: number | null;
    };
    t.equal(row.status, 'queued', 'the sent box has not confirmed it yet');
    t.not(row.handedOffAt, null, 'but the phone has it');
    await receive('+15550001', '1');
    t.same((await latest()).inReplyTo, { id, tags: { alarm: 'garage' } }, 'the reply names it');
  },
);

t.test('an SMS that arrived before a send, read after it, does not answer that send', async (t) => {
  const { a, inbox, latest } = await withInbox(t);
  const earlier = (await a.send({ to: '+15550001', message: 'the earlier question' })).json().messageId as string;
  a.clock.advance(60_000);
  inbox.receive('+15550001', 'are you there?', a.clock.now()); // on the phone now, not read yet
  a.clock.advance(5_000);
  const later = (await a.send({ to: '+15550001', message: 'sent before the inbox was read' })).json()
    .messageId as string;
  a.clock.advance(5_000);
  await a.gateway.inbox.watcher.pollOnce();
  t.not(later, earlier);
  t.same(
    (await latest()).inReplyTo,
    { id: earlier, tags: {} },
    'the message sent before it arrived, not the later one',
  );
  a.clock.advance(1500 - (a.clock.now() % 1000)); // 500 ms into a second
  const sameSecond = (await a.send({ to: '+15550001', message: 'just now' })).json().messageId as string;
  inbox.receive('+15550001', 'ok', a.clock.now() + 200); // dated to the second: the phone prints no milliseconds
  a.clock.advance(1000);
  await a.gateway.inbox.watcher.pollOnce();
  t.same(
    (await latest()).inReplyTo,
    { id: sameSecond, tags: {} },
    'a reply dated in the second of the send answers it',
  );
});
