// Per-caller rate limit: a token bucket per caller address, and the 429 it answers. The
// second guard (http/guards.ts runs it after the local-network guard and before the key
// check, so failed key guesses are counted too).
import { gatewayError, type GatewayError } from '../core/errors.js';
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

export interface BucketResult {
  allowed: boolean;
  /** Tokens left after this request. */
  tokens: number;
  /** Refused: how long until the next token. */
  waitMs: number;
  /** Allowed: until the bucket is full again; refused: until the next token (at least 1 ms). */
  resetMs: number;
}

/** A token bucket per key. `take` takes one token or reports how long until one is there. */
export function createTokenBucketStore(clock: Clock) {
  const buckets = new Map<string, Bucket>();

  const refill = (bucket: Bucket, now: number) => {
    const elapsed = Math.max(0, now - bucket.at);
    bucket.tokens = Math.min(BUCKET_CAPACITY, bucket.tokens + (elapsed * RATE_PER_SECOND) / 1000);
    bucket.at = now;
  };

  const take = (key: string): BucketResult => {
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
      return {
        allowed: true,
        tokens: bucket.tokens,
        waitMs: 0,
        resetMs: Math.ceil(((BUCKET_CAPACITY - bucket.tokens) * 1000) / RATE_PER_SECOND),
      };
    }
    const waitMs = ((1 - bucket.tokens) * 1000) / RATE_PER_SECOND;
    return { allowed: false, tokens: bucket.tokens, waitMs, resetMs: Math.max(1, Math.ceil(waitMs)) };
  };

  return { take, size: () => buckets.size };
}

/** The 429 for a caller whose next token is `waitMs` away. */
export function rateLimitedError(waitMs: number): GatewayError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return gatewayError('rate_limited', 'perAddress', RATE_PER_SECOND, seconds).with({ retryAfterSeconds: seconds });
}
