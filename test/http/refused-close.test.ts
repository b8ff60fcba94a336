// A refused caller does not keep its connection (http/guards.ts, http/errors.ts): the 401, 403
// and 429 answers say `connection: close`; an answer that is not a refusal does not.
import t from 'tap';
import { BUCKET_CAPACITY } from '../../src/http/rate-limit.js';
import { testApp } from '../helpers/test-app.js';

t.test('401, 403 and 429 close the connection; 200 and 404 keep it', async (t) => {
  const c = await testApp(t);
  const ask = (remoteAddress: string, headers: Record<string, string> = {}, url = '/api/messages') =>
    c.app.inject({ url, remoteAddress, headers });
  const ok = await c.get('/health');
  t.equal(ok.statusCode, 200);
  t.not(ok.headers.connection, 'close', '200: kept');
  const missing = await c.get('/api/messages/msg_01m88sk260s7wgswm37rvdd02c');
  t.equal(missing.statusCode, 404);
  t.not(missing.headers.connection, 'close', '404: kept');
  const noKey = await ask('192.168.1.40', { authorization: 'Bearer sk_wrong' });
  t.equal(noKey.statusCode, 401);
  t.equal(noKey.headers.connection, 'close', '401: closed');
  const outside = await ask('8.8.8.8', c.auth);
  t.equal(outside.statusCode, 403);
  t.equal(outside.headers.connection, 'close', '403: closed');
  let limited = await ask('192.168.1.41', c.auth, '/health');
  for (let i = 0; i < BUCKET_CAPACITY + 1 && limited.statusCode !== 429; i++)
    limited = await ask('192.168.1.41', c.auth, '/health');
  t.equal(limited.statusCode, 429);
  t.equal(limited.headers.connection, 'close', '429: closed');
});
