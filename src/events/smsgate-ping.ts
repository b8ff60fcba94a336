// SMSGate's system:ping: every SMS_GATEWAY_PING_MINUTES while a system:ping registration exists,
// and no timer at all while none does (a registration added or removed calls changed()). The
// interval is measured on the monotonic clock, so a wall-clock jump neither skips nor doubles a ping;
// the first ping comes one interval after the gateway started or the first registration was made.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';

export interface SmsgatePingOptions {
  clock: Clock;
  intervalMs: number;
  /** Whether a system:ping registration exists. */
  wanted: () => boolean;
  /** Stores one ping for every system:ping registration. */
  ping: () => void;
  logger?: Logger | undefined;
}

export function createSmsgatePing(opts: SmsgatePingOptions) {
  const { clock, intervalMs } = opts;
  let nextAt: number | undefined; // monotonic
  let started = false;
  const loop = createLoop({
    clock,
    run() {
      if (!opts.wanted()) {
        nextAt = undefined;
        return undefined;
      }
      const now = clock.monotonicMs();
      if (nextAt === undefined) nextAt = now + intervalMs;
      if (now >= nextAt) {
        opts.ping();
        nextAt = now + intervalMs;
      }
      return nextAt - now;
    },
    retryMs: 60_000,
    onError: (err) => opts.logger?.error({ err }, 'SMSGate system:ping could not be stored; trying again in 60 s'),
  });
  const look = () => {
    if (started) void loop.kick();
  };
  return {
    /** Background work: pings while a registration wants them. */
    start() {
      started = true;
      loop.start();
      look();
    },
    /** A registration was added or removed: start or stop the timer. */
    changed: look,
    async stop() {
      started = false;
      await loop.stop();
    },
    hasTimer: () => loop.hasTimer(),
  };
}

export type SmsgatePing = ReturnType<typeof createSmsgatePing>;
