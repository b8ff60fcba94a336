import t from 'tap';
import { UNAUTHORIZED_BODY } from '../../src/http/bearer-auth.js';
import { bearerToken } from '../../src/http/authorization-header.js';
import { testApp } from '../helpers/test-app.js';

t.test('bearerToken reads exactly one Authorization header from the raw list', async (t) => {
  t.equal(bearerToken(['Authorization', 'Bearer abc']), 'abc');
  t.equal(bearerToken(['authorization', 'bearer abc']), 'abc');
  t.equal(bearerToken(['AUTHORIZATION', 'BEARER abc']), 'abc');
  t.equal(bearerToken(['Host', 'x']), undefined, 'missing');
  t.equal(bearerToken(['Authorization', 'Bearer a', 'authorization', 'Bearer a']), undefined, 'duplicated');
  t.equal(bearerToken(['Authorization', 'Bearer']), undefined, 'no token');
  t.equal(bearerToken(['Authorization', 'Bearer ']), undefined, 'empty token');
  t.equal(bearerToken(['Authorization', 'Bearer  abc']), undefined, 'two spaces');
  t.equal(bearerToken(['Authorization', 'Bearer abc def']), undefined, 'two tokens');
  t.equal(bearerToken(['Authorization', 'Basic abc']), undefined, 'other scheme');
  t.equal(bearerToken(['Authorization', 'Bearerabc']), undefined, 'no space');
  t.equal(bearerToken(['Authorization', 'Bearer\tabc']), undefined, 'tab');
  t.equal(bearerToken(['Authorization', 'abc']), undefined, 'token alone');
});

t.test('each 401 case answers the exact guard body', async (t) => {
  const { app, key } = await testApp(t);
  const cases: [string, Record<string, string | string[]>][] = [
    ['missing', {}],
    ['empty', { authorization: '' }],
    ['scheme only', { authorization: 'Bearer' }],
    ['empty token', { authorization: 'Bearer ' }],
    ['wrong key', { authorization: 'Bearer sk_local_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' }],
    ['key prefix only', { authorization: `Bearer ${key.slice(0, -1)}` }],
    ['key with suffix', { authorization: `Bearer ${key}x` }],
    ['basic scheme', { authorization: `Basic ${key}` }],
    ['no scheme', { authorization: key }],
    ['two tokens', { authorization: `Bearer ${key} ${key}` }],
    ['duplicated header', { authorization: [`Bearer ${key}`, `Bearer ${key}`] }],
  ];
  for (const [name, headers] of cases) {
    const res = await app.inject({ url: '/openapi.json', remoteAddress: '127.0.0.2', headers });
    t.equal(res.statusCode, 401, name);
    t.same(res.json(), UNAUTHORIZED_BODY, name);
  }
});

t.test('the right key is accepted whatever the case of the scheme word', async (t) => {
  const { app, key } = await testApp(t);
  for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
    const res = await app.inject({
      url: '/openapi.json',
      remoteAddress: '127.0.0.2',
      headers: { authorization: `${scheme} ${key}` },
    });
    t.equal(res.statusCode, 200, scheme);
  }
});

t.test('/health needs no key; everything else does, unknown routes included (401 before 404)', async (t) => {
  const { app, key } = await testApp(t);
  t.equal((await app.inject({ url: '/health', remoteAddress: '10.1.2.3' })).statusCode, 200);
  t.equal((await app.inject({ method: 'HEAD', url: '/health', remoteAddress: '10.1.2.3' })).statusCode, 200);
  const unknown = await app.inject({ url: '/nope', remoteAddress: '10.1.2.3' });
  t.equal(unknown.statusCode, 401);
  t.same(unknown.json(), UNAUTHORIZED_BODY);
  const withKey = await app.inject({
    url: '/nope',
    remoteAddress: '10.1.2.3',
    headers: { authorization: `Bearer ${key}` },
  });
  t.equal(withKey.statusCode, 404);
  t.same(withKey.json(), {
    success: false,
    smsSent: false,
    error: { code: 'not_found', message: 'No route GET /nope.' },
  });
  const post = await app.inject({ method: 'POST', url: '/health', remoteAddress: '10.1.2.3' });
  t.equal(post.statusCode, 401, 'POST /health is not the public route');
});

t.test('a key rotated on disk takes effect on the very next request', async (t) => {
  const { app, key, keyFile } = await testApp(t);
  const auth = (k: string) => ({
    url: '/openapi.json',
    remoteAddress: '127.0.0.3',
    headers: { authorization: `Bearer ${k}` },
  });
  t.equal((await app.inject(auth(key))).statusCode, 200);
  const fresh = keyFile.rotate();
  t.not(fresh, key);
  t.equal((await app.inject(auth(key))).statusCode, 401, 'old key refused at once');
  t.equal((await app.inject(auth(fresh))).statusCode, 200, 'new key accepted');
});
