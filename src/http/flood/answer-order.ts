// How fast answers are made, all callers together, and who goes first when that pace is
// reached. A token bucket of answer bytes on the gateway's clock (ANSWER_BYTES_PER_SECOND,
// ANSWER_BYTES_BURST deep) is charged with each answer's bytes once it is made; while it is in
// debt (at most one answer: the largest the API gives is ~1.7 MB, a wait of about 100 ms),
// requests wait, and one is let through each time the debt is paid. Callers that pipeline
// large pages and never read them then get pages at this pace instead of the CPU's: the heap's
// garbage (a 936 KB page costs 10-17 ms and about twice its size), not the answers held, is
// what raised RSS past idle + 60 MB. A LAN client is never slowed by it (a phone's Wi-Fi
// carries a few MB/s; the burst covers a page at once). Order while waiting: light requests
// first, oldest first (their address's answer bytes of the last moments, draining at
// LIGHT_BYTES_PER_SECOND, are under HEAVY_BYTES; judged again when the turn comes, so the
// other connections of an address just served a page step back), then the others, one
// address after another. So a caller of small answers
// waits at most for the debt and the light requests before it, however many pages others
// asked for and however many new addresses keep coming (a flood of one-request connections
// from 20 000 addresses once kept a caller with the key waiting over 10 s, because newcomers
// were placed ahead of it); the heavy ones share the pace. Every step is O(1) (amortized).
import type { Clock, Timer } from '../../core/clock.js';

/** Answer bytes made per second, all callers together. */
export const ANSWER_BYTES_PER_SECOND = 16 * 1024 * 1024;
/** What may be made at once after a quiet spell. */
export const ANSWER_BYTES_BURST = 8 * 1024 * 1024;
/** An address whose recent answers hold more than this waits behind the light ones. */
export const HEAVY_BYTES = 256 * 1024;
/**
 * How fast an address's recent answer bytes drain: slowly, so that an address asking for pages
 * stays heavy between its turns (at 1 MB/s the 75 addresses of the slow-reader shape were light
 * again 0.7 s after each page, and a newcomer queued behind them for seconds).
 */
export const LIGHT_BYTES_PER_SECOND = 64 * 1024;
/** Answers smaller than this leave no trace (a /health flood from 20 000 addresses remembers none). */
const TRACE_BYTES = 16 * 1024;
/** Addresses whose recent bytes are remembered (least recently served forgotten first). */
export const MAX_REMEMBERED = 4096;

export interface OrderDeps<L> {
  clock: Clock;
  /** Hands the line's first waiting request to the app. */
  start: (line: L) => void;
  /** Runs `turn` after the I/O already pending (setImmediate; a test may pass its own). */
  defer?: ((turn: () => void) => void) | undefined;
}

/** The waiting lines: light ones oldest first, the others by address in turn; light is judged again at the turn. */
function createWaiting<L extends { readonly holder: string }>(isLight: (holder: string) => boolean) {
  const light = new Set<L>();
  /** The other addresses' waiting lines, the address served next first. */
  const heavy = new Map<string, Set<L>>();

  function waitHeavy(line: L): void {
    let lines = heavy.get(line.holder);
    if (!lines) heavy.set(line.holder, (lines = new Set()));
    lines.add(line);
  }
  function nextHeavy(): L | undefined {
    const entry = heavy.entries().next().value;
    if (!entry) return undefined;
    const [holder, lines] = entry;
    const line = lines.values().next().value!;
    lines.delete(line);
    heavy.delete(holder);
    if (lines.size > 0) heavy.set(holder, lines); // its next one after the other addresses'
    return line;
  }

  return {
    any: () => light.size > 0 || heavy.size > 0,
    add(line: L): void {
      if (isLight(line.holder)) light.add(line);
      else waitHeavy(line);
    },
    /** The oldest light line (no longer light: to the others), else the next address's. */
    next(): L | undefined {
      for (let first = light.values().next().value; first; first = light.values().next().value) {
        light.delete(first);
        if (isLight(first.holder)) return first;
        waitHeavy(first);
      }
      return nextHeavy();
    },
    leave(line: L): void {
      if (light.delete(line)) return;
      const lines = heavy.get(line.holder);
      if (lines?.delete(line) && lines.size === 0) heavy.delete(line.holder);
    },
  };
}

export function createAnswerOrder<L extends { readonly holder: string }>(deps: OrderDeps<L>) {
  const { clock } = deps;
  const defer = deps.defer ?? ((turn: () => void) => void setImmediate(turn));
  let tokens = ANSWER_BYTES_BURST;
  let at = clock.monotonicMs();
  const recent = new Map<string, { bytes: number; at: number }>();
  const waiting = createWaiting<L>((holder) => recentBytes(holder) < HEAVY_BYTES);
  let timer: Timer | undefined;
  let scheduled = false;

  /** 0 when an answer may be started now, else the ms until the debt is paid. */
  function debtMs(): number {
    const now = clock.monotonicMs();
    tokens = Math.min(ANSWER_BYTES_BURST, tokens + ((now - at) * ANSWER_BYTES_PER_SECOND) / 1000);
    at = now;
    return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / ANSWER_BYTES_PER_SECOND);
  }
  function recentBytes(holder: string): number {
    const r = recent.get(holder);
    return r ? r.bytes - ((clock.monotonicMs() - r.at) * LIGHT_BYTES_PER_SECOND) / 1000 : 0;
  }
  function schedule(): void {
    if (scheduled || timer || !waiting.any()) return;
    scheduled = true;
    defer(turn);
  }
  /** One waiting request, if the debt allows; the next turn after this one's I/O (its charge). */
  function turn(): void {
    scheduled = false;
    const wait = debtMs();
    if (wait > 0) {
      timer = clock.setTimer(() => {
        timer = undefined;
        schedule();
      }, wait);
      return;
    }
    const line = waiting.next();
    if (!line) return;
    schedule();
    deps.start(line);
  }

  return {
    /** True when the line's request may be answered now; else it waits, and `start` is called in its turn. */
    admit(line: L): boolean {
      if (!waiting.any() && debtMs() === 0) return true;
      waiting.add(line);
      schedule();
      return false;
    },
    /** An answer of `bytes` was made for the line's address. */
    charge(line: L, bytes: number): void {
      debtMs();
      tokens -= bytes;
      const before = recentBytes(line.holder);
      if (before <= 0 && bytes < TRACE_BYTES) return void recent.delete(line.holder);
      recent.delete(line.holder);
      recent.set(line.holder, { bytes: Math.max(0, before) + bytes, at: clock.monotonicMs() });
      if (recent.size > MAX_REMEMBERED) recent.delete(recent.keys().next().value!);
    },
    /** The line is gone: it is not served. */
    leave: (line: L) => waiting.leave(line),
  };
}

export type AnswerOrder<L extends { readonly holder: string }> = ReturnType<typeof createAnswerOrder<L>>;
