// A route group (src/http/route-group.ts) with its own key check and error shape, the
// SMSGate-compatible routes' (src/http/smsgate/): on the real guard hook, the order stays local network
// (403), per-caller rate limit (429), then the group's key check (its 401, Basic or Bearer);
// its routes' errors (and the rate limit's 429 on them) take its shape; the native routes beside it
// keep the bearer key alone and the envelope.
import t, { type Test } from 'tap';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { createGuards, guardHook } from '../../src/http/guards.js';
import { installErrorHandling } from '../../src/http/errors.js';
import { smsgateKeyCheck } from '../../src/http/smsgate/credential.js';
import { smsgateErrorHandler } from '../../src/http/smsgate/answers.js';
import { BUCKET_CAPACITY } from '../../src/http/rate-limit.js';
import { routeGroup } from '../../src/http/route-group.js';
import type { RouteFile, RouteParts } from '../../src/http/route-parts.js';
import { fakeClock } from '../helpers/fake-clock.js';

const KEY = 'sk_local_abcdefghijklmnopqrstuvwxyz012345';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** A hypothetical group route file: GET /thing/:n (n a number). */
const thing: RouteFile = () => {
  const plugin: FastifyPluginAsyncZod = async (app) => {
    const params = z.object({ n: z.coerce.number().int() });
    app.get('/thing/:n', { schema: { params } }, async (request) => ({ n: request.params.n }));
  };
  return plugin;
};

async function appWithGroup(t: Test) {
  const clock = fakeClock();
  const guards = createGuards(clock, () => KEY);
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandling(app);
  app.addHook('onRequest', guardHook(guards));
  const parts = { apiKey: { current: () => KEY, rotate: () => KEY } } as unknown as RouteParts;
  const group = routeGroup({ keyCheck: smsgateKeyCheck, errorHandler: smsgateErrorHandler, routes: [thing] });
  await app.register(group(parts));
  app.get('/api/native', async () => ({ success: true }));
  t.teardown(() => app.close());
  const ask = (url: string, authorization?: string, remoteAddress = '192.168.1.30') =>
    app.inject({ url, remoteAddress, headers: authorization ? { authorization } : {} });
  return { app, ask };
}

t.test("the group's key check comes after the local-network guard and the rate limit", async (t) => {
  const { ask } = await appWithGroup(t);
  const outside = await ask('/thing/1', basic('sms', KEY), '203.0.113.7');
  t.equal(outside.statusCode, 403, 'a caller outside the local network: 403 first, even with the key');
  const none = await ask('/thing/1');
  t.equal(none.statusCode, 401);
  t.match(none.json(), { message: /^Unauthorized/ }, "the group's 401 body");
  t.equal(none.headers['www-authenticate'], 'Basic realm="sms-gateway"');
  t.equal((await ask('/thing/1', basic('any-user', KEY))).statusCode, 200, 'Basic with the key as password');
  t.same((await ask('/thing/7', `Bearer ${KEY}`)).json(), { n: 7 }, 'or the bearer key');
  t.equal((await ask('/thing/1', basic('sms', 'wrong'))).statusCode, 401);
  for (let i = 0; i < BUCKET_CAPACITY; i++) await ask('/thing/1', basic('sms', 'wrong'), '192.168.1.31');
  const limited = await ask('/thing/1', basic('sms', KEY), '192.168.1.31');
  t.equal(limited.statusCode, 429, 'failed guesses are counted: the limit before the key');
  t.match(limited.json(), { message: /too many requests/i }, "the 429 in the group's shape");
  t.notOk('success' in limited.json(), 'not the native envelope');
  t.ok(Number(limited.headers['retry-after']) >= 1, 'with Retry-After');
  const native = await ask('/api/native', `Bearer ${KEY}`, '192.168.1.31');
  t.equal(native.statusCode, 429);
  t.match(native.json(), { success: false, error: { code: 'rate_limited' } }, 'a native route keeps the envelope');
});

t.test("the group's errors take its shape; the native routes keep the bearer key alone", async (t) => {
  const { ask } = await appWithGroup(t);
  const bad = await ask('/thing/abc', basic('sms', KEY));
  t.equal(bad.statusCode, 400);
  t.match(bad.json(), { message: /params\/n|expected number/i }, "the group's error shape");
  t.notOk('success' in bad.json(), 'not the native envelope');
  const nativeBasic = await ask('/api/native', basic('sms', KEY));
  t.equal(nativeBasic.statusCode, 401, 'a Basic header on a native route is refused');
  t.same(nativeBasic.json(), { error: 'Unauthorized' });
  t.equal((await ask('/api/native', `Bearer ${KEY}`)).statusCode, 200);
});
