// Webhook delivery: signs and posts each stored event to its target (postSigned), one lane
// per target so a slow or hanging target holds up only itself, retrying with backoff for
// 24 hours and never attempting an older event. A timer only while something is pending.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { redactUrl } from '../core/redact.js';
import type { Head, OutboxStore } from '../store/outbox.js';
import { DELIVERY_TIMEOUT_MS, GIVE_UP_AFTER_MS, MAX_RETRY_DELAY_MS, retryDelayMs } from './outbox.js';
import { webhookHeaders } from './signing.js';

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One signed POST with a timeout; never throws. */
export async function postSigned(
  url: string,
  id: string,
  body: string,
  secret: string,
  nowMs: number,
  userAgent: string,
  timeoutMs: number = DELIVERY_TIMEOUT_MS,
): Promise<PostResult> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: webhookHeaders(secret, id, Math.floor(nowMs / 1000), body, userAgent),
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const error =
      e.name === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : `cannot connect${e.cause?.code ? ` (${e.cause.code})` : ''}`;
    return { ok: false, status: null, error };
  }
}

export interface DeliveryOptions {
  store: OutboxStore;
  clock: Clock;
  secret: () => string;
  userAgent: string;
  logger?: Logger | undefined;
  random?: () => number;
  post?: typeof postSigned;
  timeoutMs?: number;
}

export function createWebhookDelivery(opts: DeliveryOptions) {
  const post = opts.post ?? postSigned;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<number> | undefined;
  let again = false;
  let stopped = false;
  /** After a failed round (e.g. the database cannot be written), wait before the next. */
  let pauseUntil = 0;

  const isDue = (h: Head, now: number) =>
    // A wall clock set back makes a stored time look far away: never wait longer than the cap.
    h.nextAttemptAt <= now || h.nextAttemptAt - now > MAX_RETRY_DELAY_MS * 1.25;

  const attempt = async (h: Head) => {
    const target = redactUrl(h.target);
    // Never attempted past its 24 hours, also when the phone was off for days.
    if (opts.clock.now() >= h.createdAt + GIVE_UP_AFTER_MS) {
      opts.store.failed(h, opts.clock.now(), 'expired: older than 24 hours', null);
      opts.logger?.warn({ event: h.eventId, target, attempts: h.attempts }, 'webhook event expired unsent (older than 24 hours)');
      return;
    }
    const r = await post(h.target, h.eventId, h.body, opts.secret(), opts.clock.now(), opts.userAgent, opts.timeoutMs ?? DELIVERY_TIMEOUT_MS);
    const at = opts.clock.now();
    if (r.ok) {
      opts.store.delivered(h, at);
      opts.logger?.info({ event: h.eventId, type: h.type, target, attempts: h.attempts + 1 }, 'webhook delivered');
    } else if (r.status === 410) {
      opts.store.disable(h.target, at, 'HTTP 410 Gone: switched off');
      opts.logger?.warn({ target }, 'webhook target answered 410 Gone: switched off');
    } else {
      const error = r.error ?? 'failed';
      const deadline = h.createdAt + GIVE_UP_AFTER_MS;
      const next = at >= deadline ? null : Math.min(deadline, at + retryDelayMs(h.attempts + 1, opts.random));
      opts.store.failed(h, at, error, next);
      opts.logger?.warn({ event: h.eventId, target, attempts: h.attempts + 1, error, gaveUp: next === null }, 'webhook delivery failed');
    }
  };

  /**
   * Attempts every due head until none is due and none is in flight. Each target has its
   * own lane: a target that hangs (up to the delivery timeout) holds up only itself; the
   * next event of every other target goes as soon as its own attempt is done.
   */
  const runDueNow = async (): Promise<number> => {
    let count = 0;
    let failure: unknown;
    const inFlight = new Map<string, Promise<void>>();
    for (;;) {
      const now = opts.clock.now();
      const due = stopped || failure !== undefined ? [] : opts.store.heads().filter((h) => isDue(h, now) && !inFlight.has(h.target));
      for (const h of due) {
        count++;
        const run = attempt(h)
          .catch((err: unknown) => {
            failure ??= err; // e.g. the database cannot be written: the round ends, the loop pauses
          })
          .finally(() => inFlight.delete(h.target));
        inFlight.set(h.target, run);
      }
      if (inFlight.size === 0) {
        if (failure !== undefined) throw failure;
        return count;
      }
      await Promise.race(inFlight.values());
    }
  };

  // Runs never overlap (a timer, a notify and a direct call could otherwise post twice).
  let chain: Promise<unknown> = Promise.resolve();
  const runDue = (): Promise<number> => {
    const run = chain.then(runDueNow);
    chain = run.catch(() => undefined);
    return run;
  };

  const schedule = () => {
    if (stopped) return;
    clearTimeout(timer);
    timer = undefined;
    const heads = opts.store.heads();
    if (heads.length === 0) return; // idle: no timer
    const now = opts.clock.now();
    const wait = Math.max(0, pauseUntil - now, Math.min(...heads.map((h) => (isDue(h, now) ? 0 : h.nextAttemptAt - now))));
    timer = setTimeout(() => void kick(), wait);
  };

  const kick = async () => {
    if (running) {
      again = true;
      return;
    }
    running = runDue();
    try {
      await running;
    } catch (err) {
      pauseUntil = opts.clock.now() + 30_000;
      opts.logger?.error({ err }, 'webhook delivery loop failed; trying again in 30 s');
    } finally {
      running = undefined;
    }
    if (again) {
      again = false;
      return kick();
    }
    try {
      schedule();
    } catch (err) {
      opts.logger?.error({ err }, 'webhook delivery could not schedule');
    }
  };

  return {
    runDue,
    /** After an event was enqueued (or at start): deliver soon. */
    notify() {
      if (!stopped) setImmediate(() => void kick());
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      await running;
    },
    /** Pending timer, for tests and the idle check. */
    hasTimer: () => timer !== undefined,
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
