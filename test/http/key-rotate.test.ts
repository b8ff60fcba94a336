// POST /api/key/rotate: a new key answered once, the old one refused from the next request,
// the key file holding the new one; a key file that cannot be written is 503
// storage_unavailable and the old key keeps working.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { testApp } from '../helpers/test-app.js';

const rotate = (app: Awaited<ReturnType<typeof testApp>>['app'], key: string) =>
  app.inject({
    method: 'POST',
    url: '/api/key/rotate',
    remoteAddress: '192.168.1.30',
    headers: { authorization: `Bearer ${key}` },
  });

t.test('rotates: the new key works, the old one is 401', async (t) => {
  const { app, key, keyFile } = await testApp(t);
  const res = await rotate(app, key);
  t.equal(res.statusCode, 200);
  const { apiKey } = res.json().data;
  t.match(apiKey, /^sk_local_[A-Za-z0-9]{32}$/);
  t.not(apiKey, key);
  t.same(Object.keys(res.json().data), ['apiKey']);
  t.equal(readFileSync(keyFile.path, 'utf8').trim(), apiKey, 'the key file holds the new key');
  const old = await app.inject({
    url: '/api/stats',
    remoteAddress: '192.168.1.30',
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(old.statusCode, 401);
  const fresh = await app.inject({
    url: '/api/stats',
    remoteAddress: '192.168.1.30',
    headers: { authorization: `Bearer ${apiKey}` },
  });
  t.equal(fresh.statusCode, 200);
  t.equal((await rotate(app, key)).statusCode, 401, 'the old key cannot rotate again');
});

t.test('without the key or from outside: 401 / 403, nothing rotated', async (t) => {
  const { app, key, keyFile } = await testApp(t);
  t.equal(
    (await app.inject({ method: 'POST', url: '/api/key/rotate', remoteAddress: '192.168.1.30' })).statusCode,
    401,
  );
  const outside = await app.inject({
    method: 'POST',
    url: '/api/key/rotate',
    remoteAddress: '8.8.8.8',
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(outside.statusCode, 403);
  t.equal(keyFile.current(), key);
});

t.test('a key file that cannot be written: 503 storage_unavailable, the old key stays', async (t) => {
  const { app, key, keyFile } = await testApp(t);
  keyFile.rotate = () => {
    throw Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  };
  const res = await rotate(app, key);
  t.equal(res.statusCode, 503);
  t.equal(res.json().error.code, 'storage_unavailable');
  t.match(res.json().error.message, /key was not changed/);
  t.notOk(res.headers['retry-after'], 'no Retry-After');
  t.equal(
    (
      await app.inject({
        url: '/api/stats',
        remoteAddress: '192.168.1.30',
        headers: { authorization: `Bearer ${key}` },
      })
    ).statusCode,
    200,
  );
});
