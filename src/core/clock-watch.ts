// Wall-clock jumps, seen. The phone's wall clock may be set at any moment (network time
// after a reboot, a user, a time zone app); the monotonic clock is not. The distance
// between them, now() - monotonicMs(), stays put while both run; when it moves by more
// than JUMP_THRESHOLD_MS the wall clock jumped by that much. watchClock() wraps a Clock so
// that every now() looks (two readings and a subtraction: every loop run, timer and request
// that reads the time checks for free, no timer of its own) and reports a jump once, before
// that now() returns the new time to anyone: so whatever is stamped with the new time is
// stamped after the listeners saw the jump. The gateway announces it as `clock.jumped`
// (events/domain-events.ts); the loops' longest sleep (core/loop.ts: WALL_CLOCK_STEP_MS, 30 s,
// while the queue waits for a wall-clock time) bounds how long an idle gateway takes to notice.
// A phone that suspends (no wake lock) stops the monotonic clock: its wake-up looks like a
// jump forward too. The gateway is run with a wake lock (docs/phone.md).
import type { Clock } from './clock.js';

/** A wall-clock move smaller than this is drift or a slow reading, not a jump. */
export const JUMP_THRESHOLD_MS = 5_000;

export interface ClockJump {
  /** How far the wall clock moved against the monotonic clock: > 0 forward, < 0 back. */
  deltaMs: number;
  /** The wall clock when the jump was seen (new time). */
  at: number;
}

/** What the clock watch announces on the gateway's event path. */
export interface ClockEvents {
  'clock.jumped': ClockJump;
}

export interface ClockWatchOptions {
  /** Told of each jump, synchronously, inside the now() that saw it; must not throw. */
  onJump(jump: ClockJump): void;
  thresholdMs?: number;
}

/** The clock, with every now() checking the wall against the monotonic clock. */
export function watchClock(clock: Clock, opts: ClockWatchOptions): Clock {
  const threshold = opts.thresholdMs ?? JUMP_THRESHOLD_MS;
  let offset = clock.now() - clock.monotonicMs();
  return {
    now() {
      const wall = clock.now();
      const seen = wall - clock.monotonicMs();
      const deltaMs = seen - offset;
      offset = seen; // slow drift never adds up to a jump
      if (Math.abs(deltaMs) > threshold) opts.onJump({ deltaMs, at: wall });
      return wall;
    },
    monotonicMs: () => clock.monotonicMs(),
    setTimer: (fn, ms) => clock.setTimer(fn, ms),
  };
}
