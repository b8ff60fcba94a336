// How fast answers are made, all callers together, and who goes first when that pace is
// reached. A token bucket of answer bytes on the gateway's clock (ANSWER_BYTES_PER_SECOND,
// ANSWER_BYTES_BURST deep) is charged with each answer's bytes once it is made; while it is in
// debt (at most one answer: the largest the API gives is ~1.7 MB, a wait of about 100 ms),
// requests wait, and one is let through each time the debt is paid. Callers that pipeline
// large pages and never read them then get pages at this pace instead of the CPU's: the heap's
// garbage (a 936 KB page costs 10-17 ms and about twice its size), not the answers held, is
// what raised RSS past idle + 60 MB. A LAN client is never slowed by it (a phone's Wi-Fi
// carries a few MB/s; the burst covers the largest answer at once). Order while waiting: light requests
// first, oldest first, then the others, one address after another. A request is light when
// its address's answer bytes of the last moments (draining at LIGHT_BYTES_PER_SECOND) are
// under HEAVY_BYTES and so are the answers lately made for what it asks: its URL, or when
// that URL was never answered large or small, its path (so a new address asking a page, or
// the same page with another query, is heavy from its first request, not after it). Judged
// again when the turn comes, so the other connections of an address just served a page step
// back. So a caller of small answers waits at most for the debt and the light requests before
// it, however many pages others asked for and however many new addresses keep coming (75 new
// addresses each asking a page once kept a new caller of /health waiting 4 s behind their
// first pages; a flood of one-request connections from 20 000 addresses once kept a caller
// with the key waiting over 10 s); the heavy ones share the pace. Every step is O(1)
// (amortized).
import type { Clock, Timer } from '../../core/clock.js';

/** Answer bytes made per second, all callers together. */
export const ANSWER_BYTES_PER_SECOND = 16 * 1024 * 1024;
/**
 * What may be made at once after a quiet spell: the largest answer (~1.7 MB). It was 8 MB: when
 * 525 connections asked pages at once, five pages more were made in the first moments, and RSS
 * peaked there (idle + 53 to 70 MB in five slow-reader runs; 49 to 57 MB in three with 2 MB).
 */
export const ANSWER_BYTES_BURST = 2 * 1024 * 1024;
/** An address whose recent answers hold more than this waits behind the light ones. */
export const HEAVY_BYTES = 256 * 1024;
/**
 * How fast an address's recent answer bytes drain: slowly, so that an address asking for pages
 * stays heavy between its turns (at 1 MB/s the 75 addresses of the slow-reader shape were light
 * again 0.7 s after each page, and a newcomer queued behind them for seconds).
 */
export const LIGHT_BYTES_PER_SECOND = 64 * 1024;
/**
 * Answers smaller than this leave no trace (a /health flood from 20 000 addresses remembers none),
 * unless their URL's path was lately answered large (a small URL is then told from its path).
 */
const TRACE_BYTES = 16 * 1024;
/** Addresses, and URLs and paths, whose recent bytes are remembered (least recently served forgotten first). */
export const MAX_REMEMBERED = 4096;

/**
 * URLs longer than this are judged by their path alone and never remembered, so what is kept stays
 * small (MAX_REMEMBERED keys of at most this many characters, whatever queries a caller invents).
 */
export const MAX_REMEMBERED_URL = 256;

/** A waiting connection: its caller's address, and the URL of the request it waits with or is answered for. */
export interface Waiter {
  readonly holder: string;
  readonly asking?: string | undefined;
}

export interface OrderDeps<L> {
  clock: Clock;
  /** Hands the line's first waiting request to the app. */
  start: (line: L) => void;
  /** Runs `turn` after the I/O already pending (setImmediate; a test may pass its own). */
  defer?: ((turn: () => void) => void) | undefined;
}

/** The waiting lines: light ones oldest first, the others by address in turn; light is judged again at the turn. */
function createWaiting<L extends Waiter>(isLight: (line: L) => boolean) {
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
      if (isLight(line)) light.add(line);
      else waitHeavy(line);
    },
    /** The oldest light line (no longer light: to the others), else the next address's. */
    next(): L | undefined {
      for (let first = light.values().next().value; first; first = light.values().next().value) {
        light.delete(first);
        if (isLight(first)) return first;
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

/** Bytes remembered under a key, draining at LIGHT_BYTES_PER_SECOND; the least recently told forgotten first. */
function createRecentBytes(clock: Clock) {
  const recent = new Map<string, { bytes: number; at: number }>();
  const of = (key: string): number | undefined => {
    const r = recent.get(key);
    return r && r.bytes - ((clock.monotonicMs() - r.at) * LIGHT_BYTES_PER_SECOND) / 1000;
  };
  return {
    of,
    has: (key: string) => recent.has(key),
    size: () => recent.size,
    set(key: string, bytes: number): void {
      recent.delete(key);
      recent.set(key, { bytes, at: clock.monotonicMs() });
      if (recent.size > MAX_REMEMBERED) recent.delete(recent.keys().next().value!);
    },
    forget: (key: string) => recent.delete(key),
  };
}

/** A request's URL without its query. */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
}

/** What the answers lately made for a URL say of the next request for it (its path's when it has none). */
function createAskedBytes(clock: Clock) {
  const sized = createRecentBytes(clock);
  const short = (url: string) => url.length <= MAX_REMEMBERED_URL;
  return {
    of: (url: string): number => (short(url) ? sized.of(url) : undefined) ?? sized.of(pathOf(url)) ?? 0,
    /** The largest of what is left and the new answer; a small one is kept only to tell its URL from a large path. */
    answered(url: string, bytes: number): void {
      if (bytes < TRACE_BYTES && sized.size() === 0) return;
      const path = pathOf(url);
      if (!short(path)) return; // no route of the gateway's
      if (bytes >= TRACE_BYTES) sized.set(path, Math.max(sized.of(path) ?? 0, bytes));
      if (short(url) && (bytes >= TRACE_BYTES || sized.has(url) || sized.has(path)))
        sized.set(url, Math.max(sized.of(url) ?? 0, bytes));
    },
  };
}

export function createAnswerOrder<L extends Waiter>(deps: OrderDeps<L>) {
  const { clock } = deps;
  const defer = deps.defer ?? ((turn: () => void) => void setImmediate(turn));
  let tokens = ANSWER_BYTES_BURST;
  let at = clock.monotonicMs();
  const recent = createRecentBytes(clock);
  const asked = createAskedBytes(clock);
  const isLight = (line: L) =>
    recentBytes(line.holder) < HEAVY_BYTES && (line.asking === undefined || asked.of(line.asking) < HEAVY_BYTES);
  const waiting = createWaiting<L>(isLight);
  let timer: Timer | undefined;
  let scheduled = false;

  /** 0 when an answer may be started now, else the ms until the debt is paid. */
  function debtMs(): number {
    const now = clock.monotonicMs();
    tokens = Math.min(ANSWER_BYTES_BURST, tokens + ((now - at) * ANSWER_BYTES_PER_SECOND) / 1000);
    at = now;
    return tokens >= 0 ? 0 : Math.ceil((-tokens * 1000) / ANSWER_BYTES_PER_SECOND);
  }
  const recentBytes = (holder: string): number => recent.of(holder) ?? 0;
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
      if (line.asking !== undefined) asked.answered(line.asking, bytes);
      const before = recentBytes(line.holder);
      if (before <= 0 && bytes < TRACE_BYTES) return void recent.forget(line.holder);
      recent.set(line.holder, Math.max(0, before) + bytes);
    },
    /** The line is gone: it is not served. */
    leave: (line: L) => waiting.leave(line),
  };
}

export type AnswerOrder<L extends Waiter> = ReturnType<typeof createAnswerOrder<L>>;
