// Phase 2, reads: idle RSS, CPU and wake-ups with the release's idle setting (phase-idle.ts),
// then /health and history (GET /api/messages) under the same open-loop load, on one
// simulated gateway with 1000 messages; the bare server
// answers the same /health as the floor, measured in turn with the gateway (5 windows each),
// in HEALTH_RUNS such paired runs: the ratio of record is their median.
import { measureLoad } from './load.js';
import { measureHealth } from './phase-cost.js';
import { idleRssWithoutFlags, measureIdle, startIdlePair } from './phase-idle.js';
import { log } from './measure.js';
import { stopProc, type Proc } from './processes.js';
import { HISTORY_ROWS, IDLE_CPU_MS, IDLE_SETTLE_MS, PER_CALLER_HZ } from './settings.js';

export async function readsPhase(tickHz: number) {
  const pair = await startIdlePair();
  const { gw, key, setting } = pair;
  let bare: Proc | undefined = pair.bare;
  let idle, health, history;
  try {
    idle = await measureIdle(pair, tickHz);

    health = await measureHealth(gw, bare, tickHz);
    await stopProc(bare);
    bare = undefined;

    log(`history: GET /api/messages?limit=20 (authenticated, ${HISTORY_ROWS} messages), same load ...`);
    const gwHistory = await measureLoad(
      gw,
      PER_CALLER_HZ,
      () => ({
        kind: 'history',
        path: '/api/messages?limit=20',
        headers: { authorization: `Bearer ${key}` },
        expect: 200,
      }),
      tickHz,
    );
    history = {
      cpuMsPerKReq: gwHistory.cpuMsPerKReq,
      p99Ms: gwHistory.p99Ms,
      p50Ms: gwHistory.p50Ms,
      maxMs: gwHistory.maxMs,
      requests: gwHistory.requests,
      failed: gwHistory.failed,
      non200: gwHistory.unexpected,
      errors: gwHistory.errors,
    };
  } finally {
    if (bare) await stopProc(bare);
    await stopProc(gw);
    await setting.receiver.close();
  }
  log(
    `idle without the V8 flags (dist/main.js run directly, with --no-optimize-for-size), ${(IDLE_SETTLE_MS + IDLE_CPU_MS) / 1000} s ...`,
  );
  idle = { ...idle, withoutFlags: await idleRssWithoutFlags(pair.home, setting) };
  return { idle, health, history };
}
