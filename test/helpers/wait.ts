// Waiting on real time for something outside the test process (a gateway, a child) to happen.
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Polls fn (intervalMs apart) until it gives a value other than undefined and returns it;
 * the deadline only stops a broken run. A gateway answers about 10 requests a second per
 * caller: poll it at 100 ms or slower.
 */
export async function waitFor<T>(
  what: string,
  fn: () => Promise<T | undefined> | T | undefined,
  ms = 30_000,
  intervalMs = 100,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}
