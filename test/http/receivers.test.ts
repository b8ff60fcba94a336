// POST /api/receivers/alertmanager and /grafana over the real hooks: the documented sample
// payloads of both projects (test/fixtures/alert-payloads.ts) give the exact SMS texts, one
// queued message per recipient (numbers and contact names); a retry of the same notification
// queues nothing more, while a resolved one, new alerts (a new startsAt) or the same
// notification after the retry window do; 101 alerts stay within 2 segments and say how many;
// an opted-out recipient is skipped and named; bad payloads are 400 naming the field; the
// queue's 503s, and a retry after one sends the rest once.
import t from 'tap';
import { testApp } from '../helpers/test-app.js';
import { alertmanagerPayload, amAlert, grafanaSample, type AmAlert } from '../fixtures/alert-payloads.js';
import { RETRY_WINDOW_MS } from '../../src/sms/alert-intake.js';
import { countSegments } from '../../src/sms/segments.js';
import { fillQueue, FILLER_NUMBER } from '../helpers/fill-queue.js';

type App = Awaited<ReturnType<typeof testApp>>;

const ALICE = { name: 'Alice', slug: 'alice', number: '+15550100001' };
const CALLER = '192.168.1.50';

function post(
  a: App,
  sender: 'alertmanager' | 'grafana',
  to: string,
  payload: unknown,
  headers: Record<string, string> = a.auth,
) {
  return postAsWritten(a, sender, encodeURIComponent(to), payload, headers);
}

/** The same with `to` put in the URL exactly as given (already encoded, or + for a space). */
function postAsWritten(
  a: App,
  sender: 'alertmanager' | 'grafana',
  to: string,
  payload: unknown,
  headers: Record<string, string> = a.auth,
) {
  return a.app.inject({
    method: 'POST',
    url: `/api/receivers/${sender}?to=${to}`,
    remoteAddress: CALLER,
    headers: { ...headers, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

/** Every message in the history, oldest first. */
async function history(a: App) {
  const res = await a.get('/api/messages?limit=100');
  if (res.statusCode !== 200) throw new Error(`the history answered ${res.statusCode}`);
  return (
    res.json().data as {
      id: string;
      to: string;
      body: string;
      status: string;
      reason: string | null;
      tags: Record<string, string>;
    }[]
  ).reverse();
}

const three = [amAlert(1), amAlert(2), amAlert(3)];

t.test("Alertmanager's payload: one SMS per recipient, its text exact; a retry queues nothing more", async (t) => {
  const a = await testApp(t, { contacts: [ALICE] });
  const res = await post(a, 'alertmanager', '+1 555 010 0002, alice', alertmanagerPayload(three));
  t.equal(res.statusCode, 200, res.body);
  const text = 'FIRING 3: HighLatency critical: p99 above 2s on api-1 (+2 more)';
  const body = res.json();
  t.same(body.data.text, text);
  t.match(body.data.queued, [
    { to: '+15550100002', contact: null },
    { to: '+15550100001', contact: 'Alice' },
  ]);
  t.same(body.data.skipped, []);
  const sent = await history(a);
  t.same(
    sent.map((m) => [m.id, m.to, m.body, m.reason, m.tags]),
    body.data.queued.map((q: { id: string; to: string }) => [
      q.id,
      q.to,
      text,
      null,
      { source: 'alertmanager', status: 'firing' },
    ]),
    'the queued records: one per recipient, the text, tagged with the source',
  );

  a.clock.advance(60_000);
  const retry = await post(a, 'alertmanager', '+1 555 010 0002, alice', alertmanagerPayload(three));
  t.equal(retry.statusCode, 200);
  t.same(
    retry.json().data,
    { ...body.data, replay: true, queued: body.data.queued.map((q: object) => ({ ...q, replay: true })) },
    'the retry answers the same messages, each named a replay',
  );
  t.equal(body.data.replay, false, 'the first call queued them');
  t.equal((await history(a)).length, 2, 'and queues nothing more');

  const reordered = alertmanagerPayload([amAlert(3), amAlert(1), amAlert(2)]);
  t.same(
    (await post(a, 'alertmanager', 'Alice,+15550100002', reordered))
      .json()
      .data.queued.map((q: { id: string }) => q.id)
      .sort(),
    body.data.queued.map((q: { id: string }) => q.id).sort(),
    'the alerts and recipients in another order are the same notification',
  );
  t.equal((await history(a)).length, 2);
});

t.test('a retry whose summary changed queues nothing and answers the text that was queued, as a replay', async (t) => {
  const a = await testApp(t);
  const to = '+15550100002';
  const first = await post(a, 'alertmanager', to, alertmanagerPayload(three));
  t.equal(first.statusCode, 200);
  const kept = 'FIRING 3: HighLatency critical: p99 above 2s on api-1 (+2 more)';
  t.same([first.json().data.text, first.json().data.replay], [kept, false]);

  a.clock.advance(60_000);
  const changed = amAlert(1, { annotations: { summary: 'p99 above 3s on api-1' } });
  const edited = alertmanagerPayload([changed, amAlert(2), amAlert(3)]);
  const retry = await post(a, 'alertmanager', to, edited);
  t.equal(retry.statusCode, 200, retry.body);
  t.same(
    retry.json().data,
    { text: kept, replay: true, queued: [{ ...first.json().data.queued[0], replay: true }], skipped: [] },
    'the kept text (not the edited one), named a replay',
  );
  t.same(
    (await history(a)).map((m) => m.body),
    [kept],
    'nothing new was queued',
  );
});

t.test(
  'resolved, new alerts and a repeat after the retry window each send; a retry just across a bucket edge does not',
  async (t) => {
    const a = await testApp(t);
    const to = '+15550100002';
    const first = await post(a, 'alertmanager', to, alertmanagerPayload(three));
    t.equal(first.statusCode, 200);

    const resolved = alertmanagerPayload(
      three.map((x) => ({ ...x, status: 'resolved' as const, endsAt: '2026-11-21T10:20:00.000Z' })),
    );
    const res = await post(a, 'alertmanager', to, resolved);
    t.equal(res.statusCode, 200);
    t.equal(res.json().data.text, 'RESOLVED 3: HighLatency critical: p99 above 2s on api-1 (+2 more)');
    t.not(res.json().data.queued[0].id, first.json().data.queued[0].id, 'resolved is a new message');

    const mixed = alertmanagerPayload([amAlert(1), { ...amAlert(2), status: 'resolved' }]);
    t.equal(
      (await post(a, 'alertmanager', to, mixed)).json().data.text,
      'FIRING: HighLatency critical: p99 above 2s on api-1 (1 resolved)',
    );

    const restarted = alertmanagerPayload([
      amAlert(1, { startsAt: '2026-11-21T11:00:00.000Z' }),
      amAlert(2),
      amAlert(3),
    ]);
    const again = await post(a, 'alertmanager', to, restarted);
    t.not(
      again.json().data.queued[0].id,
      first.json().data.queued[0].id,
      'an alert that started again is a new notification',
    );
    t.equal((await history(a)).length, 4);

    a.clock.advance(RETRY_WINDOW_MS - 1000);
    t.equal(
      (await post(a, 'alertmanager', to, alertmanagerPayload(three))).json().data.queued[0].id,
      first.json().data.queued[0].id,
      'within the window: a retry',
    );
    t.equal((await history(a)).length, 4);
    a.clock.advance(1000);
    const repeat = await post(a, 'alertmanager', to, alertmanagerPayload(three));
    t.not(repeat.json().data.queued[0].id, first.json().data.queued[0].id, 'after the window: a repeat, sent again');
    t.equal((await history(a)).length, 5);
    a.clock.advance(RETRY_WINDOW_MS - 1);
    t.equal(
      (await post(a, 'alertmanager', to, alertmanagerPayload(three))).json().data.queued[0].id,
      repeat.json().data.queued[0].id,
      'its retry is one again',
    );
    t.equal((await history(a)).length, 5);
  },
);

t.test('an alert of a firing group that resolves is a new notification, not a retry of the one before', async (t) => {
  // Alertmanager (send_resolved) sends the group again at its next group_interval with the
  // same alerts, one of them now resolved: same group key, group status, fingerprints and
  // start times; only that alert's status differs.
  const a = await testApp(t);
  const to = '+15550100002';
  const first = await post(a, 'alertmanager', to, alertmanagerPayload(three));
  t.equal(first.statusCode, 200);
  a.clock.advance(5 * 60_000);
  const partly = alertmanagerPayload([
    amAlert(1),
    amAlert(2),
    { ...amAlert(3), status: 'resolved', endsAt: '2026-11-21T10:20:00.000Z' },
  ]);
  const res = await post(a, 'alertmanager', to, partly);
  t.equal(res.statusCode, 200);
  t.equal(res.json().data.text, 'FIRING 2: HighLatency critical: p99 above 2s on api-1 (+1 more, 1 resolved)');
  t.not(res.json().data.queued[0].id, first.json().data.queued[0].id, 'a new message');
  t.equal((await history(a)).length, 2, 'sent');
  t.equal(
    (await post(a, 'alertmanager', to, partly)).json().data.queued[0].id,
    res.json().data.queued[0].id,
    'its own retry is one',
  );
  t.equal((await history(a)).length, 2);
});

t.test('a + written as is in the URL stays a + (not a space dropped from the number)', async (t) => {
  const a = await testApp(t);
  const res = await a.app.inject({
    method: 'POST',
    url: '/api/receivers/alertmanager?to=+15550100002,%2B15550100003',
    remoteAddress: CALLER,
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(alertmanagerPayload(three)),
  });
  t.equal(res.statusCode, 200, res.body);
  t.same(
    res.json().data.queued.map((q: { to: string }) => q.to),
    ['+15550100002', '+15550100003'],
  );
});

t.test('a contact name with a space, written in the URL as + (as forms write a space), %20 or its slug', async (t) => {
  const bob = { name: 'Bob Smith', slug: 'bob_smith', number: '+15550100004' };
  const a = await testApp(t, { contacts: [ALICE, bob] });
  for (const to of ['Bob+Smith', 'bob+smith', 'Bob%20Smith', 'bob_smith', '+15550100002,Bob+Smith']) {
    const res = await postAsWritten(a, 'alertmanager', to, alertmanagerPayload(three));
    t.equal(res.statusCode, 200, `${to}: ${res.body}`);
    t.match(res.json().data.queued.at(-1), { to: '+15550100004', contact: 'Bob Smith' }, to);
  }
});

t.test('to repeated (?to=A&to=B) names every recipient, as commas do', async (t) => {
  const a = await testApp(t, { contacts: [ALICE] });
  const res = await postAsWritten(
    a,
    'alertmanager',
    '+15550100002&to=Alice&to=%2B15550100003',
    alertmanagerPayload(three),
  );
  t.equal(res.statusCode, 200, res.body);
  t.same(
    res.json().data.queued.map((q: { to: string }) => q.to),
    ['+15550100002', '+15550100001', '+15550100003'],
    'each in the order written, a bare + kept',
  );
  const eleven = Array.from({ length: 11 }, (_, i) => `%2B155501001${String(i).padStart(2, '0')}`).join('&to=');
  const tooMany = await postAsWritten(a, 'alertmanager', eleven, alertmanagerPayload(three));
  t.equal(tooMany.statusCode, 400, 'at most 10 in all');
  t.match(tooMany.json().error.message, /at most 10/);
});

t.test('a contact name outside ASCII: percent-encoded or its entity name (docs/alerts.md)', async (t) => {
  const jurgen = { name: 'Jürgen', slug: 'jurgen', number: '+15550100005' };
  const a = await testApp(t, { contacts: [jurgen] });
  for (const to of ['J%C3%BCrgen', 'jurgen', 'JU%CC%88RGEN']) {
    const res = await postAsWritten(a, 'alertmanager', to, alertmanagerPayload(three));
    t.equal(res.statusCode, 200, `${to}: ${res.body}`);
    t.match(res.json().data.queued, [{ to: '+15550100005', contact: 'Jürgen' }], to);
  }
});

t.test("Grafana's documented example body gives its SMS", async (t) => {
  const a = await testApp(t, { contacts: [ALICE] });
  const res = await post(a, 'grafana', 'Alice', grafanaSample);
  t.equal(res.statusCode, 200, res.body);
  t.equal(res.json().data.text, 'FIRING 2: High memory usage: This alert was triggered for zone us-1 (+1 more)');
  t.match(await history(a), [{ to: '+15550100001', tags: { source: 'grafana', status: 'firing' } }]);
  t.equal(
    (await post(a, 'grafana', 'Alice', grafanaSample)).json().data.queued[0].id,
    res.json().data.queued[0].id,
    'a retry: the same message',
  );
  const resolved = {
    ...grafanaSample,
    status: 'resolved',
    state: 'ok',
    alerts: grafanaSample.alerts.map((x) => ({ ...x, status: 'resolved' })),
  };
  t.equal(
    (await post(a, 'grafana', 'Alice', resolved)).json().data.text,
    'RESOLVED 2: High memory usage: This alert was triggered for zone us-1 (+1 more)',
  );
  t.equal((await history(a)).length, 2);
});

t.test('101 alerts in one notification stay within 2 segments and say how many', async (t) => {
  const a = await testApp(t);
  const many = Array.from({ length: 101 }, (_, i) =>
    amAlert(i, { annotations: { summary: `disk “almost” full – ${'x'.repeat(400)}` } }),
  );
  const payload = alertmanagerPayload(many);
  t.ok(JSON.stringify(payload).length > 16 * 1024, 'a payload larger than the other routes take');
  const res = await post(a, 'alertmanager', '+15550100002', payload);
  t.equal(res.statusCode, 200, res.body);
  const text: string = res.json().data.text;
  t.match(text, /^FIRING 101: HighLatency critical: disk "almost" full - x+\.\.\. \(\+100 more\)$/);
  t.same(
    countSegments(text),
    { encoding: 'gsm7', segments: 2, units: 306, perSegment: 153 },
    'GSM-7, 2 segments, full',
  );
  const truncated = await post(
    a,
    'alertmanager',
    '+15550100002',
    alertmanagerPayload([amAlert(1)], { truncatedAlerts: 100 }),
  );
  t.equal(
    truncated.json().data.text,
    'FIRING 101: HighLatency critical: p99 above 2s on api-1 (+100 more)',
    'max_alerts: the ones left out are counted',
  );
});

t.test('a payload over the receivers’ 512 KB: 413 naming that limit; the other routes keep 16 KB', async (t) => {
  const a = await testApp(t);
  const huge = alertmanagerPayload([amAlert(1, { annotations: { summary: 'x'.repeat(520 * 1024) } })]);
  const res = await post(a, 'alertmanager', '+15550100002', huge);
  t.equal(res.statusCode, 413);
  t.match(res.json(), { error: { code: 'payload_too_large', message: 'Request body is larger than 512 KB.' } });
  const queued = await a.queue({ to: '+15550100002', message: 'x'.repeat(17 * 1024) });
  t.equal(queued.statusCode, 413);
  t.equal(queued.json().error.message, 'Request body is larger than 16 KB.');
});

t.test('an opted-out recipient is skipped and named; the others are queued', async (t) => {
  const a = await testApp(t, { contacts: [ALICE] });
  const added = await a.app.inject({
    method: 'POST',
    url: '/api/opt-outs',
    remoteAddress: CALLER,
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify({ number: ALICE.number }),
  });
  t.equal(added.statusCode, 201);
  const res = await post(a, 'alertmanager', 'alice,+15550100002', alertmanagerPayload(three));
  t.equal(res.statusCode, 200);
  const { queued, skipped } = res.json().data;
  t.match(skipped, [{ to: '+15550100001', contact: 'Alice', reason: 'opted_out' }]);
  t.match(queued, [{ to: '+15550100002', contact: null }]);
  const records = await history(a);
  t.match(records, [
    { id: skipped[0].id, status: 'failed', reason: 'opted_out' },
    { id: queued[0].id, status: /^(queued|sent)$/ },
  ]);
  const again = (await post(a, 'alertmanager', 'alice,+15550100002', alertmanagerPayload(three))).json().data.skipped;
  t.same(again, [{ ...skipped[0], replay: true }], 'a retry names it again');
  t.equal((await history(a)).length, 2);
});

t.test(
  'a payload that is not the sender’s, or a bad recipient list: 400 naming the field, nothing queued',
  async (t) => {
    const a = await testApp(t, { contacts: [ALICE] });
    const noLabels: Partial<AmAlert> = amAlert(1);
    delete noLabels.labels;
    const cases: [string, string, unknown, RegExp][] = [
      [
        'alerts without labels',
        '+15550100002',
        alertmanagerPayload([amAlert(0), noLabels as never]),
        /body\.alerts\.1\.labels/,
      ],
      [
        'a label that is not text',
        '+15550100002',
        alertmanagerPayload([amAlert(0, { labels: { alertname: 7 } as never })]),
        /body\.alerts\.0\.labels\.alertname/,
      ],
      ['an unknown status', '+15550100002', alertmanagerPayload(three, { status: 'pending' }), /body\.status/],
      ['no groupKey', '+15550100002', alertmanagerPayload(three, { groupKey: undefined }), /body\.groupKey/],
      ['no alerts', '+15550100002', alertmanagerPayload([]), /body\.alerts/],
      [
        'an alert without fingerprint',
        '+15550100002',
        alertmanagerPayload([amAlert(0, { fingerprint: '' })]),
        /body\.alerts\.0\.fingerprint/,
      ],
      [
        'an unknown contact',
        'Alice,Bob',
        alertmanagerPayload(three),
        /query\.to\[1\] is neither a phone number nor a contact name/,
      ],
      ['an empty recipient', 'Alice,,+15550100002', alertmanagerPayload(three), /query\.to\[1\] is empty/],
      [
        '11 recipients',
        Array.from({ length: 11 }, (_, i) => `+1555010${String(i).padStart(4, '0')}`).join(','),
        alertmanagerPayload(three),
        /at most 10/,
      ],
    ];
    for (const [name, to, payload, message] of cases) {
      const res = await post(a, 'alertmanager', to, payload);
      t.equal(res.statusCode, 400, name);
      t.match(res.json(), { success: false, smsSent: false, error: { code: 'invalid_request', message } }, name);
    }
    const noTo = await a.app.inject({
      method: 'POST',
      url: '/api/receivers/grafana',
      remoteAddress: CALLER,
      headers: { ...a.auth, 'content-type': 'application/json' },
      payload: JSON.stringify(grafanaSample),
    });
    t.equal(noTo.statusCode, 400);
    t.match(noTo.json().error.message, /querystring\.to/);
    t.equal((await history(a)).length, 0, 'nothing queued');
    const unknownFields = await post(
      a,
      'alertmanager',
      '+15550100002',
      alertmanagerPayload(three, { futureField: { x: 1 }, commonAnnotations: null }),
    );
    t.equal(unknownFields.statusCode, 200, 'fields the SMS does not need are lenient');
  },
);

t.test('the key is needed; the 503s are the queue route’s, and a retry after one sends the rest once', async (t) => {
  const a = await testApp(t, { contacts: [ALICE] });
  t.equal((await post(a, 'alertmanager', '+15550100002', alertmanagerPayload(three), {})).statusCode, 401);
  a.db.pragma('query_only = ON');
  const refused = await post(a, 'alertmanager', '+15550100002,Alice', alertmanagerPayload(three));
  t.equal(refused.statusCode, 503);
  t.match(refused.json(), { success: false, smsSent: false, error: { code: 'storage_unavailable' } });
  a.db.pragma('query_only = OFF');
  const retried = await post(a, 'alertmanager', '+15550100002,Alice', alertmanagerPayload(three));
  t.equal(retried.statusCode, 200);
  t.equal((await history(a)).length, 2, 'each recipient once');
  t.equal((await post(a, 'alertmanager', '+15550100002,Alice', alertmanagerPayload(three))).statusCode, 200);
  t.equal((await history(a)).length, 2, 'and a further retry queues nothing');
});

t.test(
  'queue_full with room for only some recipients: nothing queued, as the answer says; the retry sends each once',
  async (t) => {
    const a = await testApp(t);
    await a.gateway.sending.lane.stop();
    fillQueue(a.db, a.clock, 1);
    const refused = await post(a, 'alertmanager', '+15550100002,+15550100003', alertmanagerPayload(three));
    t.equal(refused.statusCode, 503);
    t.match(refused.json(), { error: { code: 'queue_full', message: /nothing was queued/ }, retryAfterSeconds: 60 });
    const waiting = () =>
      a.db
        .prepare(`SELECT COUNT(*) AS n FROM messages WHERE status = 'queued' AND to_number != '${FILLER_NUMBER}'`)
        .get() as { n: number };
    t.equal(waiting().n, 0, 'true to its word: no recipient of the notification was queued');
    a.db
      .prepare(
        `DELETE FROM messages WHERE to_number = '${FILLER_NUMBER}' AND rowid IN (SELECT rowid FROM messages WHERE to_number = '${FILLER_NUMBER}' LIMIT 5)`,
      )
      .run();
    const retried = await post(a, 'alertmanager', '+15550100002,+15550100003', alertmanagerPayload(three));
    t.equal(retried.statusCode, 200, retried.body);
    t.equal(waiting().n, 2, 'then each recipient once');
  },
);

t.test('SMS switched off: 503 sms_disabled, as the queue answers', async (t) => {
  const a = await testApp(t, { runtime: { smsEnabled: false } });
  const res = await post(a, 'alertmanager', '+15550100002', alertmanagerPayload(three));
  t.equal(res.statusCode, 503);
  t.match(res.json(), { error: { code: 'sms_disabled' } });
});
