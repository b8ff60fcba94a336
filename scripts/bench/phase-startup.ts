// Phase 1, startup: process start to the first 200 /health, fresh processes, interleaved
// with the bare server; a warm home (Node's compile cache filled) is measured too.
import { log, median, round } from './measure.js';
import { newHome, started, startBare, startGateway, stopProc, waitForHealth } from './processes.js';
import { STARTUP_RUNS } from './settings.js';

export async function startupPhase(tickHz: number) {
  log(`startup: ${STARTUP_RUNS} x gateway (fresh home, simulated) and bare ...`);
  const gwStart: { ms: number; cpuMs: number }[] = [];
  const gwWarm: { ms: number; cpuMs: number }[] = [];
  const bareStart: { ms: number; cpuMs: number }[] = [];
  // Warm: one home started again and again, as on the phone (Node's compile cache lives
  // in the home; the first start fills it and is not counted).
  const warmHome = newHome('warm');
  await stopProc(await started(startGateway(warmHome)));
  for (let i = 0; i < STARTUP_RUNS; i++) {
    for (const [home, into] of [
      [newHome(`startup${i}`), gwStart],
      [warmHome, gwWarm],
    ] as const) {
      const gw = startGateway(home);
      try {
        const r = await waitForHealth(gw);
        into.push({ ms: r.ms, cpuMs: (r.ticks * 1000) / tickHz });
      } finally {
        await stopProc(gw);
      }
    }
    const bare = startBare();
    try {
      const r = await waitForHealth(bare);
      bareStart.push({ ms: r.ms, cpuMs: (r.ticks * 1000) / tickHz });
    } finally {
      await stopProc(bare);
    }
  }
  const startup = {
    gatewayMs: round(median(gwStart.map((s) => s.ms))),
    bareMs: round(median(bareStart.map((s) => s.ms))),
    ratio: 0,
    gatewayWarmMs: round(median(gwWarm.map((s) => s.ms))),
    gatewayCpuMs: round(median(gwStart.map((s) => s.cpuMs))),
    bareCpuMs: round(median(bareStart.map((s) => s.cpuMs))),
    gatewayRunsMs: gwStart.map((s) => round(s.ms)),
    bareRunsMs: bareStart.map((s) => round(s.ms)),
  };
  startup.ratio = round(startup.gatewayMs / startup.bareMs);
  return startup;
}
