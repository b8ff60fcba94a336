// SMSGate's settings routes on the composed gateway: writes are 405 naming .env, behind the
// group's credential (Basic with any user and the key, or Bearer), errors in SMSGate's shape.
import t from 'tap';
import { testApp } from '../helpers/test-app.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

t.test('PUT and PATCH /settings are 405 naming .env, with Basic or Bearer', async (t) => {
  const { app, key } = await testApp(t);
  for (const [method, authorization] of [
    ['PUT', basic('sms', key)],
    ['PATCH', `Bearer ${key}`],
  ] as const) {
    const res = await app.inject({
      method,
      url: '/settings',
      remoteAddress: '192.168.1.40',
      headers: { authorization, 'content-type': 'application/json' },
      payload: '{"messages":{"limitValue":5}}',
    });
    t.equal(res.statusCode, 405, method);
    t.equal(res.headers.allow, 'GET');
    t.match(res.json(), { message: /\.env/ });
  }
});

t.test('without the credential: 401 with the Basic challenge, in SMSGate shape', async (t) => {
  const { app, key } = await testApp(t);
  for (const authorization of [undefined, basic('sms', 'wrong'), `Bearer wrong`, basic('sms', `${key} `)]) {
    const res = await app.inject({
      method: 'PATCH',
      url: '/settings',
      remoteAddress: '192.168.1.41',
      headers: authorization ? { authorization } : {},
    });
    t.equal(res.statusCode, 401, String(authorization));
    t.equal(res.headers['www-authenticate'], 'Basic realm="sms-gateway"');
    t.match(res.json(), { message: /Basic/ });
  }
  const outside = await app.inject({
    method: 'PATCH',
    url: '/settings',
    remoteAddress: '203.0.113.9',
    headers: { authorization: basic('sms', key) },
  });
  t.equal(outside.statusCode, 403, 'outside the local network: 403 before the key');
});

t.test('a native route refuses Basic even with the right key', async (t) => {
  const { app, key } = await testApp(t);
  const res = await app.inject({
    url: '/api/messages',
    remoteAddress: '192.168.1.42',
    headers: { authorization: basic('sms', key) },
  });
  t.equal(res.statusCode, 401);
  t.same(res.json(), { error: 'Unauthorized' });
  const metrics = await app.inject({
    url: '/metrics',
    remoteAddress: '192.168.1.42',
    headers: { authorization: basic('sms', key) },
  });
  t.equal(metrics.statusCode, 401, '/metrics too');
});
