// A path the gateway does not serve, asked by an SMSGate client (a Basic credential): SMSGate's
// 404 { message } with the right key and its 401 with the Basic challenge with a wrong one, never
// the native 401 that reads as a wrong password. Other requests keep the native answers.
import t from 'tap';
import { testApp } from '../helpers/test-app.js';

const basic = (password: string) => `Basic ${Buffer.from(`sms:${password}`).toString('base64')}`;

t.test("an unserved path with Basic: SMSGate's 404 with the key, its 401 without", async (t) => {
  const { app, key } = await testApp(t);
  const ask = (method: 'GET' | 'POST', url: string, authorization?: string, remoteAddress = '192.168.1.60') =>
    app.inject({ method, url, remoteAddress, headers: authorization ? { authorization } : {} });
  for (const [method, url] of [
    ['POST', '/auth/token'],
    ['GET', '/health/ready'],
    ['GET', '/inbox/in_1/attachments/0?x=1'],
  ] as const) {
    const found = await ask(method, url, basic(key));
    t.equal(found.statusCode, 404, `${method} ${url} with the key`);
    t.same(found.json(), { message: `No route ${method} ${url.split('?')[0]}.` }, "SMSGate's shape");
    const wrong = await ask(method, url, basic('wrong'));
    t.equal(wrong.statusCode, 401, `${method} ${url} with a wrong key`);
    t.equal(wrong.headers['www-authenticate'], 'Basic realm="sms-gateway"');
    t.match(wrong.json(), { message: /^Unauthorized/ });
  }
  const native = await ask('GET', '/api/nothing', `Bearer ${key}`);
  t.equal(native.statusCode, 404, 'Bearer: the native 404');
  t.match(native.json(), { success: false, error: { code: 'not_found' } });
  const none = await ask('GET', '/api/nothing');
  t.equal(none.statusCode, 401, 'no credential: the native 401');
  t.same(none.json(), { error: 'Unauthorized' });
  const outside = await ask('POST', '/auth/token', basic(key), '203.0.113.5');
  t.equal(outside.statusCode, 403, 'outside the local network: 403 first');
});
