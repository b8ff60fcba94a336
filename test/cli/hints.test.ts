import t from 'tap';
import { GatewayError } from '../../src/client.js';
import { describeGatewayError, keyRefusedHint } from '../../src/cli/hints.js';

t.test('401: names the key file it used and SMS_GATEWAY_HOME', async (t) => {
  const line = describeGatewayError(new GatewayError(401, 'unauthorized', 'Unauthorized'), '/home/u/other/api-key');
  t.equal(line, `Unauthorized: ${keyRefusedHint('/home/u/other/api-key')}`);
  t.match(line, /the API key in \/home\/u\/other\/api-key/);
  t.match(line, /SMS_GATEWAY_HOME/);
});

t.test('unreachable: asks whether the gateway runs', async (t) => {
  t.equal(
    describeGatewayError(new GatewayError(0, 'unreachable', 'cannot reach the gateway at http://127.0.0.1:8080'), '/k'),
    'cannot reach the gateway at http://127.0.0.1:8080 (is `sms-gateway start` running?)',
  );
});

t.test("anything else: the gateway's own message, which says what to do", async (t) => {
  t.equal(describeGatewayError(new GatewayError(400, 'invalid_request', 'Invalid request: body.to must be a phone number'), '/k'), 'Invalid request: body.to must be a phone number');
});
