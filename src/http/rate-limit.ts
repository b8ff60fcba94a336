// Per-caller rate limit: a token bucket behind @fastify/rate-limit's store interface.
// Registered with global: false and added as the second shared onRequest hook (after the
// local-network guard, before the key check, so failed key guesses are counted too).
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { callerAddress } from './local-network.js';
import type { Clock } from '../core/clock.js';

/** Tokens added per second: a caller at this steady rate is never refused. */
export const RATE_PER_SECOND = 10;
/** Bucket size: the steady rate plus a burst of 10 more within one second. */
export const BUCKET_CAPACITY = 20;
/**
 * Buckets kept at most. The Map is kept in least-recently-used order (a caller's bucket
 * moves to the end on each request), so past the cap the caller unseen for longest is
 * forgotten: O(1) per request and bounded memory, even under a flood of addresses.
 */
export const MAX_BUCKETS = 10_000;

interface Bucket {
  tokens: number;
  at: number;
}

type IncrCallback = (err: Error | null, res: { current: number; ttl: number }) => void;

/** A token bucket per key. `incr` takes one token or reports how long until one is there. */
export function createTokenBucketStore(clock: Clock) {
  const buckets = new Map<string, Bucket>();

  const refill = (bucket: Bucket, now: number) => {
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(BUCKET_CAPACITY, bucket.tokens + (elapsed * RATE_PER_SECOND) / 1000);
    bucket.at = now;
  };

  const take = (key: string): { allowed: boolean; tokens: number; waitMs: number } => {
    const now = clock.monotonicMs();
    let bucket = buckets.get(key);
    if (bucket) {
      buckets.delete(key); // re-inserted below: the Map's order is least recently used first
    } else {
      bucket = { tokens: BUCKET_CAPACITY, at: now };
      if (buckets.size >= MAX_BUCKETS) buckets.delete(buckets.keys().next().value!);
    }
    buckets.set(key, bucket);
    refill(bucket, now);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, tokens: bucket.tokens, waitMs: 0 };
    }
    return { allowed: false, tokens: bucket.tokens, waitMs: ((1 - bucket.tokens) * 1000) / RATE_PER_SECOND };
  };

  class TokenBucketStore {
    incr(key: string, cb: IncrCallback) {
      const r = take(key);
      if (r.allowed) {
        // current <= max means allowed; ttl is how long until the bucket is full again.
        cb(null, {
          current: BUCKET_CAPACITY - Math.floor(r.tokens),
          ttl: Math.ceil(((BUCKET_CAPACITY - r.tokens) * 1000) / RATE_PER_SECOND),
        });
      } else {
        cb(null, { current: BUCKET_CAPACITY + 1, ttl: Math.max(1, Math.ceil(r.waitMs)) });
      }
    }
    child() {
      return this;
    }
  }

  return { Store: TokenBucketStore, take, size: () => buckets.size };
}

/** Registers the limiter and its hook; returns the bucket check for requests that skip hooks. */
export function rateLimitedError(waitMs: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new GatewayError(
    'rate_limited',
    `Too many requests from this address (about ${RATE_PER_SECOND} per second allowed); retry in ${seconds} s.`,
    { retryAfterSeconds: seconds },
  );
}

export async function registerRateLimit(app: FastifyInstance, clock: Clock) {
  const { Store, take } = createTokenBucketStore(clock);
  await app.register(rateLimit, {
    global: false,
    max: BUCKET_CAPACITY,
    timeWindow: 1000,
    store: Store as never,
    keyGenerator: callerAddress,
    errorResponseBuilder: (_request, context) => rateLimitedError(context.ttl),
  });
  app.addHook('onRequest', app.rateLimit());
  return { take };
}
