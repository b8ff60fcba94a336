// Our signatures checked by an independent implementation: the standardwebhooks package.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { statSync } from 'node:fs';
import {
  createWebhookSecretFile,
  generateWebhookSecret,
  sign,
  webhookHeaders,
  WEBHOOK_SECRET_PATTERN,
} from '../../src/events/signing.js';
import { tempDir } from '../helpers/paths.js';

t.test('standardwebhooks accepts our requests and rejects a changed body', async (t) => {
  const secret = generateWebhookSecret();
  t.match(secret, WEBHOOK_SECRET_PATTERN);
  const body = JSON.stringify({
    id: 'evt_1',
    type: 'sms.sent',
    createdAt: '2026-11-21T12:00:00.000Z',
    data: { to: '+15551234567', body: 'Grüße 😀' },
  });
  const now = Math.floor(Date.now() / 1000);
  const headers = webhookHeaders(secret, 'evt_1', now, body, 'sms-gateway/test');
  const wh = new Webhook(secret);
  t.same(wh.verify(body, headers), JSON.parse(body));
  const tampered = Buffer.from(body);
  tampered[10] = tampered[10]! ^ 1;
  t.throws(() => wh.verify(tampered.toString(), headers), 'one byte changed: rejected');
  t.throws(() => wh.verify(body, { ...headers, 'webhook-id': 'evt_2' }), 'another id: rejected');
  t.throws(() => new Webhook(generateWebhookSecret()).verify(body, headers), 'another secret: rejected');
  const old = webhookHeaders(secret, 'evt_1', now - 3600, body, 'x');
  t.throws(() => wh.verify(body, old), 'a stale timestamp: rejected by the receiver');
});

t.test('a known vector', async (t) => {
  // Computed independently: HMAC-SHA256 of "msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{\"test\": 2432232314}"
  // with the key MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw (the Standard Webhooks example secret).
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  t.equal(
    sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  );
});

t.test('the secret file is 0600 and rotates', async (t) => {
  const home = tempDir(t);
  const file = createWebhookSecretFile(home);
  const first = file.current();
  t.match(first, WEBHOOK_SECRET_PATTERN);
  t.equal(statSync(file.path).mode & 0o777, 0o600);
  const next = file.rotate();
  t.not(next, first);
  t.equal(createWebhookSecretFile(home).current(), next);
});
