// kill -9 of the real gateway while the durable queue drains (POST /api/messages), through
// the kill harness (test/fixtures/kill-harness.ts; rounds: SMS_GATEWAY_KILL_ROUNDS, 3 unless
// set): without a sent box, and with a phone that keeps sending after the gateway dies
// (issue 13: the record must agree with the phone's SMS store), beginning with a kill inside a
// hung hand-off whose grandchild the restart must end (it is then looked for in the SMS
// store for 30 s, which this case waits for anyway).
import t from 'tap';
import { runKillRounds } from '../fixtures/kill-harness.js';

t.test('kill -9 while a queue drains, no sent box', (t) =>
  runKillRounds(t, { path: 'queued', phone: 'plain', slowSeconds: 0.4, caller: '127.0.0.41' }),
);

t.test(
  "kill -9 while a queue drains: every record agrees with the phone's SMS store; the first kill inside a hung hand-off",
  (t) => runKillRounds(t, { path: 'queued', phone: 'sentbox', slowSeconds: 2, hangFirst: true, caller: '127.0.0.43' }),
);
