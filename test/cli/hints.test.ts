import t from 'tap';
import { GatewayRequestError } from '../../src/client.js';
import { describeRequestError, keyRefusedHint, sendErrorLine } from '../../src/cli/hints.js';
import { failureError } from '../../src/sms/reasons.js';

t.test('401: names the key file it used and SMS_GATEWAY_HOME', async (t) => {
  const line = describeRequestError(
    new GatewayRequestError(401, 'unauthorized', 'Unauthorized'),
    '/home/u/other/api-key',
  );
  t.equal(line, `Unauthorized: ${keyRefusedHint('/home/u/other/api-key')}`);
  t.match(line, /the API key in \/home\/u\/other\/api-key/);
  t.match(line, /SMS_GATEWAY_HOME/);
});

t.test('unreachable: asks whether the gateway runs', async (t) => {
  t.equal(
    describeRequestError(
      new GatewayRequestError(0, 'unreachable', 'cannot reach the gateway at http://127.0.0.1:8080'),
      '/k',
    ),
    'cannot reach the gateway at http://127.0.0.1:8080 (is `sms-gateway start` running?)',
  );
});

t.test("anything else: the gateway's own message, which says what to do", async (t) => {
  t.equal(
    describeRequestError(
      new GatewayRequestError(400, 'invalid_request', 'Invalid request: body.to must be a phone number'),
      '/k',
    ),
    'Invalid request: body.to must be a phone number',
  );
});

t.test('send: a timeout says the outcome is unknown and how to check, never "not sent"', async (t) => {
  const timeout = new GatewayRequestError(
    502,
    'send_failed',
    failureError('timeout', 'no answer within 30000 ms').message,
  );
  const line = sendErrorLine(timeout, '/k', false);
  t.match(
    line,
    /^sms-gateway: Whether the SMS goes out is unknown \(timeout: no answer within 30000 ms\)\..*termux-sms-list -t sent/,
  );
  t.notMatch(line, /not sent/);
  const failed = new GatewayRequestError(502, 'send_failed', failureError('permission_denied').message);
  t.match(
    sendErrorLine(failed, '/k', false),
    /^sms-gateway: The SMS was not sent \(permission_denied\)/,
    'said once, not "not sent: The SMS was not sent"',
  );
  t.equal(
    sendErrorLine(new GatewayRequestError(400, 'invalid_request', 'Invalid request: x'), '/k', true),
    'sms-gateway: not queued: Invalid request: x\n',
  );
  t.match(
    sendErrorLine(new GatewayRequestError(401, 'unauthorized', 'Unauthorized'), '/h/api-key', false),
    /^sms-gateway: not sent: Unauthorized: the running gateway does not accept the API key in \/h\/api-key/,
  );
});
