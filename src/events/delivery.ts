// Webhook delivery: renders, signs and posts each stored event to its target (postSigned), one lane
// per target so a slow or hanging target holds up only itself, retrying with backoff for 24 hours
// and never attempting an older event. A timer only while something is pending (core/loop.ts's, on
// the injected clock). A wall-clock jump (`clock.jumped`) moves the stored times with it
// (store/outbox.ts shiftTimes) and wakes delivery; an attempt in flight across the jump adds it to
// the head it read before. The rules: at least once, per target in order (a target's oldest pending
// event goes first); 2xx = delivered, 410 = the target is switched off, anything else is retried
// with exponential backoff and jitter (first retry within 30 s, at most 1 h apart) for up to 24 hours.
// Each attempt renders the body from the stored typed event (wire-bodies.ts) by the head's dialect,
// which also says how it is signed: Standard Webhooks (signing.ts) or X-Signature (smsgate-signing.ts).
import type { Logger } from 'pino';
import { sleepFor, type Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import { redactUrl } from '../core/webhook-url.js';
import type { Head, OutboxStore } from '../store/outbox.js';
import { DELIVERY_TIMEOUT_MS, postSigned } from './post-signed.js';
import { wireBody } from './wire-bodies.js';

export const GIVE_UP_AFTER_MS = 24 * 3600_000;
export const MAX_RETRY_DELAY_MS = 3600_000;
const FIRST_RETRY_MS = 15_000;

/** Delay before retry n (1-based): 15 s, 30 s, 60 s ... capped at 1 h, each ±20 %. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

export interface DeliveryOptions {
  store: OutboxStore;
  clock: Clock;
  secret: () => string;
  userAgent: string;
  logger?: Logger | undefined;
  random?: () => number;
  post?: typeof postSigned;
  /** The wire body of a head (tests: another renderer). */
  render?: (h: Head) => string;
  timeoutMs?: number;
}

/** True when a head's next attempt is due at `now`. */
const isDue = (h: Head, now: number) =>
  // A wall clock set back makes a stored time look far away: never wait longer than the cap.
  h.nextAttemptAt <= now || h.nextAttemptAt - now > MAX_RETRY_DELAY_MS * 1.25;

/** The head's wire body, or undefined when its stored event cannot be rendered. */
function renderedOrUndefined(opts: DeliveryOptions, h: Head): string | undefined {
  try {
    return (opts.render ?? wireBody)(h);
  } catch {
    return undefined;
  }
}

/** One attempt of one head: delivered, switched off (410), failed with its next try, or expired. */
async function attempt(opts: DeliveryOptions, post: typeof postSigned, h: Head, state: RoundState): Promise<void> {
  const jumpedBefore = state.jumpedMs;
  /** Its deadline, moved by any jump seen since h was read (the stored time moved too). */
  const deadline = () => h.createdAt + (state.jumpedMs - jumpedBefore) + GIVE_UP_AFTER_MS;
  const target = redactUrl(h.url);
  // Never attempted past its 24 hours, also when the phone was off for days.
  const now = opts.clock.now(); // a jump seen here moves deadline() too
  if (now >= deadline()) {
    opts.store.failed(h, opts.clock.now(), 'expired: older than 24 hours', null);
    opts.logger?.warn(
      { event: h.eventId, target, attempts: h.attempts },
      'webhook event expired unsent (older than 24 hours)',
    );
    return;
  }
  const body = renderedOrUndefined(opts, h);
  if (body === undefined) {
    // A stored event that cannot be rendered (a damaged row) never will be: it is dropped for its
    // target alone, so it neither stalls the other targets nor retries for 24 hours.
    opts.store.failed(h, now, 'unreadable: the stored event cannot be rendered', null);
    opts.logger?.error({ event: h.eventId, target }, 'webhook event unreadable: dropped for this target');
    return;
  }
  const r = await post(
    h.url,
    h.eventId,
    body,
    opts.secret(),
    opts.clock.now(),
    opts.userAgent,
    opts.timeoutMs ?? DELIVERY_TIMEOUT_MS,
    h.dialect,
  );
  const at = opts.clock.now();
  if (r.ok) {
    opts.store.delivered(h, at);
    opts.logger?.info({ event: h.eventId, type: h.type, target, attempts: h.attempts + 1 }, 'webhook delivered');
  } else if (r.status === 410) {
    opts.store.disable(h.target, at, 'HTTP 410 Gone: switched off');
    opts.logger?.warn({ target }, 'webhook target answered 410 Gone: switched off (an SMSGate registration: removed)');
  } else {
    const error = r.error ?? 'failed';
    const end = deadline();
    const next = at >= end ? null : Math.min(end, at + retryDelayMs(h.attempts + 1, opts.random));
    opts.store.failed(h, at, error, next);
    opts.logger?.warn(
      { event: h.eventId, target, attempts: h.attempts + 1, error, gaveUp: next === null },
      'webhook delivery failed',
    );
  }
}

/** Ms until the first head not in `busy` is due (0: now); undefined when none waits. */
function waitMs(heads: Head[], busy: Map<string, unknown>, now: number): number | undefined {
  let wait: number | undefined;
  for (const h of heads) {
    if (busy.has(h.target)) continue;
    const w = isDue(h, now) ? 0 : Math.max(0, h.nextAttemptAt - now);
    wait = wait === undefined ? w : Math.min(wait, w);
  }
  return wait;
}

/** What a round shares with the delivery's handle. */
interface RoundState {
  stopped: boolean;
  /** Attempts ended so far (runDue reports how many ended while it waited). */
  ended: number;
  /** Wakes a round that waits on attempts in flight: a new event was stored. */
  poke: (() => void) | undefined;
  /** The sum of the wall-clock jumps seen so far (ms). */
  jumpedMs: number;
}

/**
 * Attempts every due head until none is due and none is in flight. Each target has its
 * own lane, one attempt in flight at most: a target that hangs (up to the delivery
 * timeout) holds up only itself. While attempts are in flight the round also wakes for a
 * new event (notify) and for the next retry of an idle target, so every other target's
 * next event goes at once, not after the slow one's attempt.
 */
async function runDueRound(opts: DeliveryOptions, post: typeof postSigned, state: RoundState): Promise<void> {
  let failure: { err: unknown } | undefined;
  const inFlight = new Map<string, Promise<void>>();
  for (;;) {
    const now = opts.clock.now();
    const heads = state.stopped || failure !== undefined ? [] : opts.store.heads();
    for (const h of heads.filter((x) => isDue(x, now) && !inFlight.has(x.target))) {
      const run = attempt(opts, post, h, state)
        .catch((err: unknown) => {
          failure ??= { err }; // e.g. the database cannot be written: the round ends, the loop pauses
        })
        .finally(() => {
          state.ended++;
          inFlight.delete(h.target);
        });
      inFlight.set(h.target, run);
    }
    if (inFlight.size === 0) {
      if (failure !== undefined) throw failure.err;
      return;
    }
    const next = waitMs(heads, inFlight, now);
    const sleep = next === undefined ? undefined : sleepFor(opts.clock, next);
    const woken = new Promise<void>((resolve) => (state.poke = resolve));
    await Promise.race([...inFlight.values(), woken, ...(sleep ? [sleep.done] : [])]);
    state.poke = undefined;
    sleep?.cancel();
  }
}

export function createWebhookDelivery(opts: DeliveryOptions) {
  const post = opts.post ?? postSigned;
  const state: RoundState = { stopped: false, ended: 0, poke: undefined, jumpedMs: 0 };

  /** Ms until the next head is due; undefined when nothing is pending (idle: no timer). */
  const nextWait = (): number | undefined => waitMs(opts.store.heads(), new Map(), opts.clock.now());

  // Runs never overlap (a timer, a notify and a direct call could otherwise post twice).
  const loop = createLoop({
    clock: opts.clock,
    async run() {
      await runDueRound(opts, post, state);
      try {
        return state.stopped ? undefined : nextWait();
      } catch (err) {
        opts.logger?.error({ err }, 'webhook delivery could not schedule');
        return undefined;
      }
    },
    retryMs: 30_000,
    onError: (err) => opts.logger?.error({ err }, 'webhook delivery loop failed; trying again in 30 s'),
  });

  const notify = () => {
    if (state.stopped) return;
    state.poke?.(); // a round waiting on a slow target hands it to the others now
    loop.wakeIn(0);
  };

  return {
    /**
     * Attempts what is due now (after the run in flight, if any); resolves to how many
     * attempts ended meanwhile (the run in flight's included).
     */
    async runDue(): Promise<number> {
      const before = state.ended;
      await loop.kick();
      return state.ended - before;
    },
    /** After an event was enqueued (or at start): deliver soon, after the caller's transaction. */
    notify,
    /** The wall clock jumped by deltaMs (the outbox's times were moved with it): look again now. */
    clockJumped(deltaMs: number) {
      state.jumpedMs += deltaMs;
      notify();
    },
    async stop() {
      state.stopped = true;
      await loop.stop();
    },
    /** Pending timer, for tests and the idle check. */
    hasTimer: () => loop.hasTimer(),
  };
}

export type WebhookDelivery = ReturnType<typeof createWebhookDelivery>;
