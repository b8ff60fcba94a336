// The bench's fixed settings: paths, ports, the offered load, the phase lengths and the
// targets each result is judged against. Quick mode (`npm run bench -- --quick` or
// BENCH_QUICK=1) runs shorter phases and only the issue's table (startup, idle, /health,
// queue CPU, wake-ups): for iterating, not for the figures of record.
import { join } from 'node:path';
import { PORT } from '../../src/core/runtime.js';
import { PACKAGE_ROOT } from '../../src/core/package-root.js';

// The bench is bundled into dist-scripts/ (scripts/build.mjs bench): the root is found as the gateway finds it.
export const ROOT = PACKAGE_ROOT;
export const CLI = join(ROOT, 'bin/sms-gateway');
/** The built CLI without the launcher (no V8 flags): the bench's "without the flags" idle row. */
export const MAIN = join(ROOT, 'dist/main.js');
export const BARE_SERVER = join(ROOT, 'dist-scripts/bare-server.js');
/** The queue's floor: one hand-off and two fsync'd commits a second in a bare Node (scripts/spawn-floor.ts). */
export const SPAWN_FLOOR = join(ROOT, 'dist-scripts/spawn-floor.js');
export const FAKE_TERMUX = join(ROOT, 'test/fixtures/bin/fake-termux');
export const RESULTS = join(ROOT, 'bench-results.json');
export const GATEWAY_PORT = PORT;
export const BARE_PORT = 8089;

// The offered load: 50 loopback callers (127.0.0.10 .. 127.0.0.59) at 8 req/s each, under
// the gateway's per-caller limit of 10/s, open loop.
export const QUICK = process.argv.includes('--quick') || process.env.BENCH_QUICK === '1';
export const CALLERS = 50;
export const PER_CALLER_HZ = 8;
export const LOAD_MS = QUICK ? 4_000 : 10_000;
export const WARMUP_MS = QUICK ? 1_000 : 2_000;
export const STARTUP_RUNS = QUICK ? 5 : 11;
/** Paired /health runs (gateway and bare in turn); the CPU ratio of record is their median. */
export const HEALTH_RUNS = QUICK ? 1 : 3;
// Idle is measured once the start is over: V8's memory reducer runs its collections (on
// the main thread and its 4 workers, ~800 wake-ups) 5 to 10 s after the start, once.
export const IDLE_SETTLE_MS = QUICK ? 12_000 : 40_000;
export const IDLE_CPU_MS = QUICK ? 15_000 : 20_000;
export const HISTORY_ROWS = 1000;
export const SEND_SAMPLES = 25;
export const SEND_SPACING_MS = 1050;
export const SOAK_WARMUP_MS = 10_000;
export const SOAK_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 10_000;
// The connection flood: one host, as many connections as it can open, for 10 s.
export const FLOOD_CALLER = '127.0.0.90';
export const FLOOD_WITNESS = '127.0.0.91';
export const FLOOD_MS = 10_000;
export const FLOOD_IN_FLIGHT = 300;

/** The battery phase (issue 37): a whole simulated hour after a 5 min warm-up; quick: 10 min, scaled. */
export const BATTERY = QUICK
  ? { windowMs: 10 * 60_000, warmupMs: 2 * 60_000, replySamples: 3 }
  : { windowMs: 60 * 60_000, warmupMs: 5 * 60_000, replySamples: 7 };

/** The issue's targets (#21): ratios against bare Fastify from the same run. */
export const ISSUE_TARGETS = {
  coldStartRatio: 1.5,
  warmStartRatio: 1.3,
  idleRssOverBareMb: 8,
  healthCpuRatio: 1.3,
  /** Queue CPU per message at most this much over its floor (scripts/spawn-floor.ts), ms. */
  queueCpuMsOverFloor: 1,
  idleWakeupsPerMinute: 12,
};

export const TARGETS = {
  startupRatio: 1.5,
  idleCpuPercent: 0.5,
  idleRssMb: 75,
  healthRatio: 1.6,
  sendP50Ms: 20,
  soakGrowthPercent: 10,
};
