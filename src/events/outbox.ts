// The webhook outbox's delivery rules (the outbox's tables are store/outbox.ts): delivery
// (events/delivery.ts) is at least once, per target in order (the oldest pending event of
// a target goes first); 2xx = delivered, 410 = the target is switched off, anything else
// is retried with exponential backoff and jitter (first retry within 30 s, at most 1 h
// apart) for up to 24 hours.
export const DELIVERY_TIMEOUT_MS = 10_000;
export const GIVE_UP_AFTER_MS = 24 * 3600_000;
export const MAX_RETRY_DELAY_MS = 3600_000;
const FIRST_RETRY_MS = 15_000;

/** Delay before retry n (1-based): 15 s, 30 s, 60 s ... capped at 1 h, each ±20 %. */
export function retryDelayMs(attempts: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_RETRY_DELAY_MS, FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}
