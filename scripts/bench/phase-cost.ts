// The per-request and start cost against bare Fastify: /health under the same open-loop load
// on the gateway and the bare server in turn (HEALTH_RUNS paired runs; the ratio of record is
// their median), used by the reads phase; and `npm run bench -- --cost`, which runs only the
// startup phase and these paired /health runs (a few minutes: for comparing builds).
import { measureLoads, type LoadResult } from './load.js';
import { log, median, round } from './measure.js';
import { getBody, newHome, startBare, startGateway, stopProc, waitForHealth, type Proc } from './processes.js';
import { startupPhase } from './phase-startup.js';
import { BARE_PORT, CALLERS, GATEWAY_PORT, HEALTH_RUNS, LOAD_MS, PER_CALLER_HZ, WARMUP_MS } from './settings.js';

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** HEALTH_RUNS paired /health runs on `gw` and `bare`, both started and answering. */
export async function measureHealth(gw: Proc, bare: Proc, tickHz: number) {
  const load = `${CALLERS * PER_CALLER_HZ} req/s open loop over ${CALLERS} callers for ${LOAD_MS / 1000} s each`;
  const turns = `gateway and bare in turn, 5 windows each, ${HEALTH_RUNS} paired runs`;
  log(`health: ${load} (after a ${WARMUP_MS / 1000} s warm-up), ${turns} ...`);
  const gwBody = await getBody(GATEWAY_PORT, '/health');
  const bareBody = await getBody(BARE_PORT, '/health');
  const healthSpec = () => ({ kind: 'health', path: '/health', expect: 200 });
  // The figure of record is the median of HEALTH_RUNS paired runs (each its own ratio): one
  // run's ratio moves with the machine by more than the target's margin.
  const runs: [LoadResult, LoadResult][] = [];
  for (let i = 0; i < HEALTH_RUNS; i++) {
    runs.push((await measureLoads([gw, bare], PER_CALLER_HZ, healthSpec, tickHz)) as [LoadResult, LoadResult]);
  }
  const ratios = runs.map(([g, b]) => round(g.cpuMsPerKReq / b.cpuMsPerKReq));
  const [gwHealth, bareHealth] = runs[ratios.indexOf(median(ratios))]!;
  return {
    gatewayCpuMsPerKReq: gwHealth.cpuMsPerKReq,
    bareCpuMsPerKReq: bareHealth.cpuMsPerKReq,
    ratio: median(ratios),
    ratios,
    p99Ms: gwHealth.p99Ms,
    p50Ms: gwHealth.p50Ms,
    maxMs: gwHealth.maxMs,
    bareP50Ms: bareHealth.p50Ms,
    bareP99Ms: bareHealth.p99Ms,
    offeredRps: CALLERS * PER_CALLER_HZ,
    requests: sum(runs.map(([g]) => g.requests)),
    failed: sum(runs.map(([g]) => g.failed)),
    non200: sum(runs.map(([g]) => g.unexpected)),
    bareRequests: sum(runs.map(([, b]) => b.requests)),
    bareFailed: sum(runs.map(([, b]) => b.failed)),
    bareNon200: sum(runs.map(([, b]) => b.unexpected)),
    sameBody: JSON.stringify(JSON.parse(gwBody)) === JSON.stringify(JSON.parse(bareBody)),
    schedulerMaxLateMs: Math.max(...runs.flat().map((r) => r.maxLateMs)),
    errors: [...new Set(runs.flat().flatMap((r) => r.errors))],
  };
}

/** `--cost`: the cold and warm start, then the paired /health runs on a fresh gateway. */
export async function costPhase(tickHz: number) {
  const startup = await startupPhase(tickHz);
  const gw = startGateway(newHome('cost'));
  let bare: Proc | undefined;
  try {
    await waitForHealth(gw);
    bare = startBare();
    await waitForHealth(bare);
    const health = await measureHealth(gw, bare, tickHz);
    return { startup, health };
  } finally {
    if (bare) await stopProc(bare);
    await stopProc(gw);
  }
}

/** The `--cost` lines: the start and /health ratios with every paired run. */
export function printCost({ startup, health }: Awaited<ReturnType<typeof costPhase>>): void {
  log(`start, cold: gateway ${startup.gatewayMs} ms, bare ${startup.bareMs} ms: ${startup.ratio}x`);
  log(`  runs, gateway ${startup.gatewayRunsMs.join(' ')}; bare ${startup.bareRunsMs.join(' ')}`);
  log(`start, warm: gateway ${startup.gatewayWarmMs} ms: ${round(startup.gatewayWarmMs / startup.bareMs)}x`);
  // CPU to the first answer moves less with the machine's load than the wall time does.
  const cpuRatio = round(startup.gatewayCpuMs / startup.bareCpuMs);
  log(
    `  CPU to the first answer, cold: gateway ${startup.gatewayCpuMs} ms, bare ${startup.bareCpuMs} ms: ${cpuRatio}x`,
  );
  const runs = health.ratios.join(', ');
  const { gatewayCpuMsPerKReq: gwUs, bareCpuMsPerKReq: bareUs } = health;
  log(`/health CPU a request: gateway ${gwUs} us, bare ${bareUs} us: ${health.ratio}x (runs ${runs})`);
  const failed = `failed ${health.failed}, not 200 ${health.non200}, bare failed ${health.bareFailed}`;
  log(`  ${failed}; p50 ${health.p50Ms} ms, p99 ${health.p99Ms} ms`);
}
