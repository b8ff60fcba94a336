// kill -9 of the real gateway while the durable queue drains (POST /api/messages), through
// the kill harness (test/fixtures/kill-harness.ts; rounds: SMS_GATEWAY_KILL_ROUNDS, 3 unless
// set): without a sent box, and with a phone that keeps sending after the gateway dies
// (issue 13: the record must agree with the phone's SMS store).
import t from 'tap';
import { runKillRounds } from '../fixtures/kill-harness.js';

t.test('kill -9 while a queue drains, no sent box', (t) =>
  runKillRounds(t, { path: 'queued', phone: 'plain', slowSeconds: 0.4, caller: '127.0.0.41' }));

t.test("kill -9 while a queue drains: every record agrees with the phone's SMS store", (t) =>
  runKillRounds(t, { path: 'queued', phone: 'sentbox', slowSeconds: 2, caller: '127.0.0.43' }));
