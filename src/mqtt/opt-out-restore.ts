// Puts this gateway's own last change of a number back on the broker when the broker's copy of it
// turned out not to be that change (refused: dated ahead, an unproven removal, malformed; or older),
// so a phone that starts later reads the real state, not a forgery or a stale copy. At most once
// per RESTORE_EVERY_MS per number: a wish within that time is kept for its end (one timer per
// number, at most MAX_NUMBERS), so two phones that refuse each other's changes cannot loop.
import type { Clock, Timer } from '../core/clock.js';

export const RESTORE_EVERY_MS = 5 * 60_000;
const MAX_NUMBERS = 1000;

/** `publishOwn` publishes the number's change as the list holds it now, if it is this gateway's own. */
export function createOptOutRestore(clock: Pick<Clock, 'now' | 'setTimer'>, publishOwn: (number: string) => void) {
  const last = new Map<string, number>();
  const waiting = new Map<string, Timer>();
  const now = (number: string) => {
    if (last.size >= MAX_NUMBERS) last.clear();
    last.set(number, clock.now());
    publishOwn(number);
  };
  return (number: string): void => {
    if (waiting.has(number)) return;
    const previous = last.get(number);
    const wait = previous === undefined ? 0 : previous + RESTORE_EVERY_MS - clock.now();
    if (wait <= 0) now(number);
    else if (waiting.size < MAX_NUMBERS) {
      const timer = clock.setTimer(() => {
        waiting.delete(number);
        now(number);
      }, wait);
      waiting.set(number, timer);
    }
  };
}
