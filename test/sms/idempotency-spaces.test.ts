// The Idempotency-Keys the gateway makes for itself (alert receivers, opt-out answers, rule
// replies) and the keys callers send live in separate spaces: a caller who sends the very key
// an alert receiver computes neither suppresses the page nor gets its message back.
import t from 'tap';
import { notificationOf } from '../../src/http/receiver-schemas.js';
import { alertKey } from '../../src/sms/alert-intake.js';
import { alertmanagerPayload, amAlert } from '../fixtures/alert-payloads.js';
import { testApp } from '../helpers/test-app.js';

const ONCALL = '+15550100002';

t.test("a caller's key equal to the alert receiver's computed key: the real alert still sends", async (t) => {
  const a = await testApp(t);
  const payload = alertmanagerPayload([amAlert(1)]);
  const key = alertKey(notificationOf('alertmanager', payload as never), ONCALL, a.clock.now());
  const seeded = await a.queue({ to: '+15550100009', message: 'not a page' }, { 'idempotency-key': key });
  t.equal(seeded.statusCode, 202, 'the caller may use any printable key');
  const page = await a.app.inject({
    method: 'POST',
    url: `/api/receivers/alertmanager?to=${encodeURIComponent(ONCALL)}`,
    remoteAddress: '192.168.1.50',
    headers: { ...a.auth, 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
  t.equal(page.statusCode, 200, page.body);
  const queued = page.json().data.queued as { id: string; to: string }[];
  t.match(queued, [{ to: ONCALL }]);
  t.not(queued[0]!.id, seeded.json().data[0].id, "a message of its own, not the caller's");
  for (let i = 0; i < 3; i++) {
    await a.gateway.sending.lane.runDue();
    await a.clock.tick(30_000); // past the spacing between hand-offs
  }
  t.ok(
    a.handoffs.some((h) => h.number === ONCALL),
    'the page was handed off',
  );
  const again = await a.queue({ to: '+15550100009', message: 'not a page' }, { 'idempotency-key': key });
  t.equal(again.json().data[0].id, seeded.json().data[0].id, "the caller's own key still replays the caller's message");
});
