// kill -9 of the real gateway during synchronous sends (POST /api/sms/send), through the
// kill harness (test/fixtures/kill-harness.ts; rounds: SMS_GATEWAY_KILL_ROUNDS, 3 unless set):
// without a sent box (an interrupted hand-off is failed/interrupted at once), and with a
// phone that keeps sending after the gateway dies (the record must agree with its SMS store).
import t from 'tap';
import { runKillRounds } from '../fixtures/kill-harness.js';

t.test('kill -9 during paced synchronous sends, no sent box', (t) =>
  runKillRounds(t, { path: 'sync', phone: 'plain', slowSeconds: 0.3, caller: '127.0.0.9' }),
);

t.test('kill -9 during synchronous sends with a sent box', (t) =>
  runKillRounds(t, { path: 'sync', phone: 'sentbox', slowSeconds: 0.3, caller: '127.0.0.5' }),
);
