// The guard order as one decision (http/guards.ts), without Fastify: local network (403)
// before the rate limit (429) before the key (401); a public route skips only the key; a
// request Node could not read meets only the local-network guard and is not counted.
import t from 'tap';
import { createGuards, refusalAnswer, unreadableRequestRefusal } from '../../src/http/guards.js';
import { BUCKET_CAPACITY } from '../../src/http/rate-limit.js';
import { fakeClock } from '../helpers/fake-clock.js';

const KEY = 'sk_local_abcdefghijklmnopqrstuvwxyz012345';
const withKey = ['Authorization', `Bearer ${KEY}`];

t.test('403 before 429 before 401; a public route needs no key but is counted', async (t) => {
  const guards = createGuards(fakeClock(), () => KEY);
  const caller = (peer: string, rawHeaders: string[] = [], publicRoute = false) => ({ peer, rawHeaders, publicRoute });
  for (let i = 0; i < BUCKET_CAPACITY + 5; i++)
    t.same(guards.check(caller('8.8.8.8', withKey)), { status: 403 }, 'never counted, never 401');
  t.same(guards.check(caller('10.0.0.1')), { status: 401 });
  t.equal(guards.check(caller('10.0.0.1', withKey)), undefined);
  t.equal(guards.check(caller('10.0.0.1', [], true)), undefined, 'public route: no key');
  for (let i = 3; i < BUCKET_CAPACITY; i++) guards.check(caller('::ffff:10.0.0.1', withKey));
  const limited = guards.check(caller('10.0.0.1'));
  t.match(limited, { status: 429 }, 'the limit before the key: no 401 once the bucket is empty');
  t.match(refusalAnswer(limited!), { status: 429, body: { error: { code: 'rate_limited' }, retryAfterSeconds: 1 } });
  t.equal(guards.check(caller('10.0.0.2'))?.status, 401, 'another caller has its own bucket');
});

t.test('a request Node could not read: only the local-network guard', async (t) => {
  t.same(unreadableRequestRefusal('203.0.113.9'), { status: 403 });
  t.same(unreadableRequestRefusal(undefined), { status: 403 });
  t.equal(unreadableRequestRefusal('192.168.1.5'), undefined);
  t.same(refusalAnswer({ status: 403 }), { status: 403, body: { error: 'Forbidden: local network access only' } });
  t.same(refusalAnswer({ status: 401 }), { status: 401, body: { error: 'Unauthorized' } });
});
