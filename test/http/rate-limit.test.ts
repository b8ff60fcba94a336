import t from 'tap';
import { BUCKET_CAPACITY, MAX_BUCKETS, createTokenBucketStore } from '../../src/http/rate-limit.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

t.test('a caller at a steady 10 requests per second is never refused', async (t) => {
  const { app, clock } = await testApp(t);
  let refused = 0;
  for (let i = 0; i < 300; i++) {
    const res = await app.inject({ url: '/health', remoteAddress: '192.168.1.10' });
    if (res.statusCode !== 200) refused++;
    clock.advance(100);
  }
  t.equal(refused, 0, '300 requests over 30 s, none refused');
});

t.test('a burst of 10 on top of the steady rate is tolerated, then cut with 429 rate_limited', async (t) => {
  const { app, clock } = await testApp(t);
  const caller = '192.168.1.11';
  for (let i = 0; i < BUCKET_CAPACITY; i++) {
    t.equal((await app.inject({ url: '/health', remoteAddress: caller })).statusCode, 200, `request ${i + 1}`);
  }
  const cut = await app.inject({ url: '/health', remoteAddress: caller });
  t.equal(cut.statusCode, 429);
  t.equal(cut.headers['retry-after'], '1');
  t.same(cut.json(), {
    success: false,
    smsSent: false,
    error: {
      code: 'rate_limited',
      message: 'Too many requests from this address (about 10 per second allowed); retry in 1 s.',
    },
    retryAfterSeconds: 1,
  });
  const other = await app.inject({ url: '/health', remoteAddress: '192.168.1.12' });
  t.equal(other.statusCode, 200, 'another caller is not affected');
  clock.advance(100);
  t.equal((await app.inject({ url: '/health', remoteAddress: caller })).statusCode, 200, 'one token back after 100 ms');
  t.equal((await app.inject({ url: '/health', remoteAddress: caller })).statusCode, 429, 'and only one');
});

t.test('IPv4-mapped and plain forms of an address share one bucket', async (t) => {
  const { app } = await testApp(t);
  for (let i = 0; i < BUCKET_CAPACITY; i++) await app.inject({ url: '/health', remoteAddress: '::ffff:10.9.9.9' });
  t.equal((await app.inject({ url: '/health', remoteAddress: '10.9.9.9' })).statusCode, 429);
});

t.test('failed key attempts count against the caller; a non-local caller never reaches the limiter', async (t) => {
  const { app } = await testApp(t);
  const wrong = { authorization: 'Bearer sk_local_wrongwrongwrongwrongwrongwrong12' };
  for (let i = 0; i < BUCKET_CAPACITY; i++) {
    t.equal((await app.inject({ url: '/api/stats', remoteAddress: '10.0.0.5', headers: wrong })).statusCode, 401);
  }
  const guess = await app.inject({ url: '/api/stats', remoteAddress: '10.0.0.5', headers: wrong });
  t.equal(guess.statusCode, 429, 'key guessing is rate limited');
  t.equal(guess.json().error.code, 'rate_limited');
  for (let i = 0; i < 3 * BUCKET_CAPACITY; i++) {
    const res = await app.inject({ url: '/api/stats', remoteAddress: '8.8.4.4', headers: wrong });
    if (res.statusCode !== 403) t.fail(`request ${i}: ${res.statusCode}`);
  }
  t.pass('60 requests from a public address: all 403, never 429 or 401');
});

t.test('the bucket store refills at 10 per second', async (t) => {
  const clock = fakeClock();
  const store = createTokenBucketStore(clock);
  for (let i = 0; i < BUCKET_CAPACITY; i++) t.equal(store.take('a').allowed, true);
  const refused = store.take('a');
  t.equal(refused.allowed, false);
  t.equal(Math.round(refused.waitMs), 100, 'waits 100 ms for the next token');
  clock.advance(2000);
  t.equal(store.take('a').allowed, true);
  t.equal(store.size(), 1);
});

t.test('a flood of distinct addresses: bounded, O(1), the least recently seen caller is forgotten', async (t) => {
  const clock = fakeClock();
  const store = createTokenBucketStore(clock);
  for (let i = 0; i < BUCKET_CAPACITY; i++) store.take('steady');
  t.equal(store.take('steady').allowed, false, 'the steady caller has used its burst');
  store.take('old');
  const started = process.hrtime.bigint();
  for (let i = 0; i < MAX_BUCKETS * 3; i++) {
    store.take(`flood-${i}`);
    if (i % 1000 === 0) store.take('steady'); // it keeps coming: it stays remembered
  }
  const perRequestUs = Number(process.hrtime.bigint() - started) / 1000 / (MAX_BUCKETS * 3);
  t.equal(store.size(), MAX_BUCKETS, 'never more buckets than the cap');
  t.equal(store.take('steady').allowed, false, 'a recently seen caller keeps its (empty) bucket');
  t.equal(store.take('old').allowed, true, 'the caller unseen for longest was forgotten (a fresh bucket)');
  t.comment(`${perRequestUs.toFixed(2)} µs per request over ${MAX_BUCKETS * 3} addresses`);
});
