// How fast the gateway makes answer bytes, all callers together (issue 34, case 1): a token
// bucket of bytes on the gateway's clock, ANSWER_BYTES_PER_SECOND refilled, ANSWER_BYTES_BURST
// deep. http/fair-turns.ts takes a turn only while the bucket is not in debt, and charges each
// answer's bytes once it is made, so the debt is at most one answer (the largest the API gives
// is ~1.7 MB: a wait of about 100 ms). Callers that pipeline large pages and never read them
// then get pages at this pace instead of the CPU's (a 936 KB page costs 10-17 ms to build
// and about twice its size in garbage): under issue 34's shape the heap's garbage, not the
// answers held, was what raised RSS past idle + 60 MB. A LAN client is never slowed by it: the
// fastest Wi-Fi a phone serves carries a few MB/s, and the burst covers a page at once.

/** Answer bytes made per second, all callers together. */
export const ANSWER_BYTES_PER_SECOND = 16 * 1024 * 1024;
/** What may be made at once after a quiet spell. */
export const ANSWER_BYTES_BURST = 8 * 1024 * 1024;

export function createAnswerBudget(monotonicMs: () => number) {
  let tokens = ANSWER_BYTES_BURST;
  let at = monotonicMs();

  function refill(): void {
    const now = monotonicMs();
    tokens = Math.min(ANSWER_BYTES_BURST, tokens + ((now - at) * ANSWER_BYTES_PER_SECOND) / 1000);
    at = now;
  }

  return {
    /** 0 when an answer may be started now, else the ms until the debt is paid. */
    waitMs(): number {
      refill();
      return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / ANSWER_BYTES_PER_SECOND);
    },
    /** An answer of `bytes` was made. */
    spend(bytes: number): void {
      refill();
      tokens -= bytes;
    },
  };
}
