// When each device fact is read again: not while its last reading is younger than the
// fact's max age; after a failed read, not before a pause (1 minute, doubling per failure in
// a row, at most the max age), so a hanging Termux:API holds an asker up at most once per
// pause; at the next ask, whatever its age, once invalidated. One read per fact is in
// flight at a time, joined by every asker.
import type { Clock } from '../core/clock.js';

/**
 * After a failed read, how long before an ask tries again (doubling per failure in a row, at most the fact's max age).
 */
export const FAILED_READ_PAUSE_MS = 60_000;

/** Per fact: when it last answered and was last tried (monotonic), failures in a row, its read in flight. */
interface Bookkeeping {
  answeredMono: number | null;
  triedMono: number | null;
  failures: number;
  invalidated: boolean;
  inFlight: Promise<void> | undefined;
}

/** `onRead`: after each read, answered or not, once its bookkeeping is done. */
export function createFactFreshness<N extends string>(
  clock: Clock,
  maxAge: Readonly<Record<N, number>>,
  onRead: (n: N) => void,
) {
  const book = new Map<N, Bookkeeping>();
  const of = (n: N): Bookkeeping => {
    let b = book.get(n);
    if (!b)
      book.set(n, (b = { answeredMono: null, triedMono: null, failures: 0, invalidated: false, inFlight: undefined }));
    return b;
  };
  /** The last reading is younger than the fact's max age (invalidated or not: it may be shown). */
  const young = (n: N) => {
    const answered = of(n).answeredMono;
    return answered !== null && clock.monotonicMs() - answered < maxAge[n];
  };
  const fresh = (n: N) => young(n) && !of(n).invalidated;
  /** An ask reads it: never tried, invalidated, or not fresh and past the pause after a failed read. */
  const due = (n: N) => {
    const b = of(n);
    if (b.invalidated || b.triedMono === null) return true;
    if (fresh(n)) return false;
    const pause = Math.min(maxAge[n], FAILED_READ_PAUSE_MS * 2 ** Math.max(0, b.failures - 1));
    return b.failures === 0 || clock.monotonicMs() - b.triedMono >= pause;
  };
  /** Runs `read` (true: it answered), or joins the read of `n` in flight. */
  const track = (n: N, read: () => Promise<boolean>): Promise<void> => {
    const b = of(n);
    if (b.inFlight) return b.inFlight;
    b.invalidated = false;
    b.inFlight = read().then((answered) => {
      b.inFlight = undefined;
      b.triedMono = clock.monotonicMs();
      b.failures = answered ? 0 : b.failures + 1;
      if (answered) b.answeredMono = b.triedMono;
      onRead(n);
    });
    return b.inFlight;
  };
  return {
    young,
    track,
    /** Reads `n` through `read` when due; else waits for its read in flight if it has no fresh reading. */
    ask(n: N, read: () => Promise<boolean>): Promise<void> {
      if (due(n)) return track(n, read);
      return (!fresh(n) && of(n).inFlight) || Promise.resolve();
    },
    /** Tried at least once, or being read now. */
    started: (n: N) => of(n).triedMono !== null || of(n).inFlight !== undefined,
    invalidate(n: N): void {
      of(n).invalidated = true;
    },
  };
}
