// The one background-loop primitive: a job that runs again and again, never twice at once.
// A kick while it runs asks for one more run after it (many kicks, one run); each run says
// when it wants the next (a delay in ms, or nothing: sleep until kicked); wakeIn() keeps
// the earliest wake-up asked for; a run that throws is reported and retried after a delay;
// stop() ends the wake-ups and waits for the run in flight. Time comes from the Clock, so a
// test's fake clock drives every loop built on it.
// No timer sleeps longer than MAX_WAIT_STEP_MS: a longer wait (a sendAt weeks ahead, quiet
// hours, a retry an hour away, a slow poll) is armed in steps. Each step only reads the
// wall clock, so a wall clock that jumped while the gateway idled is seen within one step
// (core/clock-watch.ts: its listeners may set an earlier wake-up), and arms the next step;
// the run itself comes at its time. At most 4 wake-ups an hour, only while a wait is that long.
// A loop that waits for a wall-clock time (the queue's sendAt and quiet hours) asks for
// WALL_CLOCK_STEP_MS instead: a phone's clock set forward (network time, the user) releases
// what became due within 30 s, not at the old distance; 2 wake-ups a minute while it waits.
import { sleepFor, type Clock, type Timer } from './clock.js';

/** The longest a loop sleeps at once (15 minutes). */
export const MAX_WAIT_STEP_MS = 15 * 60_000;
/** The longest a loop waiting for a wall-clock time sleeps at once: how late a jump is seen at worst. */
export const WALL_CLOCK_STEP_MS = 30_000;

export interface LoopOptions {
  clock: Clock;
  /** One run; resolves to the ms until the next run, or undefined to sleep until kicked. */
  run(): Promise<number | undefined> | number | undefined;
  /** A run that threw: the error goes here, and the loop runs again after retryMs. */
  onError(err: unknown): void;
  retryMs: number;
  /** The longest sleep at once (default MAX_WAIT_STEP_MS; WALL_CLOCK_STEP_MS for wall-clock waits). */
  stepMs?: number;
}

export interface Loop {
  /** Runs now, or once more after the run in flight; resolves when that run has finished. */
  kick(): Promise<void>;
  /** Runs in ms (monotonic; armed in steps of at most MAX_WAIT_STEP_MS) unless an earlier wake-up is already set. */
  wakeIn(ms: number): void;
  /** Allows runs again after stop() (does not run by itself). */
  start(): void;
  /** No more runs or wake-ups; waits for the run in flight (at most graceMs when given). */
  stop(graceMs?: number): Promise<void>;
  /** A wake-up is set. */
  hasTimer(): boolean;
  /** Resolves when no run is in flight. */
  idle(): Promise<void>;
}

/**
 * Runs fn at monotonic time dueAt, armed in steps of at most stepMs. Every step
 * reads the wall clock first (a jump's listeners may cancel this timer and set another).
 */
function steppedTimer(clock: Clock, dueAt: number, stepMs: number, fn: () => void): Timer {
  let current: Timer | undefined;
  let cancelled = false;
  const arm = () => {
    const left = Math.max(0, dueAt - clock.monotonicMs());
    current = clock.setTimer(
      () => {
        clock.now(); // a jump is seen here (core/clock-watch.ts)
        if (cancelled) return;
        if (dueAt - clock.monotonicMs() >= 1) arm();
        else fn();
      },
      Math.min(stepMs, left),
    );
  };
  arm();
  return {
    cancel() {
      cancelled = true;
      current?.cancel();
    },
  };
}

export function createLoop(opts: LoopOptions): Loop {
  const { clock } = opts;
  const stepMs = Math.max(1, Math.min(MAX_WAIT_STEP_MS, opts.stepMs ?? MAX_WAIT_STEP_MS));
  let timer: Timer | undefined;
  let wakeAt = 0; // monotonic, meaningful while timer is set
  let running: Promise<void> | undefined;
  let again: Promise<void> | undefined;
  let stopped = false;

  const cancel = () => {
    timer?.cancel();
    timer = undefined;
  };

  const wakeIn = (ms: number) => {
    if (stopped) return;
    const at = clock.monotonicMs() + Math.max(0, ms);
    if (timer && wakeAt <= at) return;
    cancel();
    wakeAt = at;
    timer = steppedTimer(clock, at, stepMs, () => {
      timer = undefined;
      void kick();
    });
  };

  const once = async () => {
    cancel(); // this run says when the next is due
    let next: number | undefined;
    try {
      next = await opts.run();
    } catch (err) {
      try {
        opts.onError(err);
      } catch {
        // reporting must not end the loop
      }
      next = opts.retryMs;
    }
    if (next !== undefined) wakeIn(next);
  };

  const kick = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again ??= running.then(() => {
        again = undefined;
        return kick();
      });
      return again;
    }
    running = once().finally(() => {
      running = undefined;
    });
    return running;
  };

  return {
    kick,
    wakeIn,
    start() {
      stopped = false;
    },
    async stop(graceMs?: number) {
      stopped = true;
      cancel();
      if (!running) return;
      if (graceMs === undefined) return running;
      const grace = sleepFor(clock, graceMs);
      await Promise.race([running, grace.done]);
      grace.cancel();
    },
    hasTimer: () => timer !== undefined,
    idle: () => running ?? Promise.resolve(),
  };
}
