// Phase 2, reads: idle RSS and CPU, then /health and history (GET /api/messages) under
// the same open-loop load, on one simulated gateway with 1000 messages; the bare server
// answers the same /health as the floor, measured in turn with the gateway (5 windows each),
// in HEALTH_RUNS such paired runs: the ratio of record is their median.
import { setTimeout as sleep } from 'node:timers/promises';
import { fillHistory } from './history.js';
import { measureLoad } from './load.js';
import { measureHealth } from './phase-cost.js';
import { commandLine, cpuTicks, log, round, rssOf, wakeups } from './measure.js';
import {
  apiKey,
  gatewayEnv,
  getBody,
  newHome,
  startBare,
  startGateway,
  startProc,
  stopProc,
  waitForHealth,
  type Proc,
} from './processes.js';
import { GATEWAY_PORT, MAIN, HISTORY_ROWS, IDLE_CPU_MS, IDLE_SETTLE_MS, PER_CALLER_HZ } from './settings.js';
import { MEMORY_MODE_OFF } from '../../src/core/memory-mode.js';

export async function readsPhase(tickHz: number) {
  const home = newHome('history');
  await fillHistory(home, HISTORY_ROWS);
  const key = apiKey(home);
  log(
    `idle: gateway (simulated, ${HISTORY_ROWS} messages in history) and bare, ${IDLE_SETTLE_MS / 1000} s settle + ${IDLE_CPU_MS / 1000} s CPU ...`,
  );
  const gw = startGateway(home);
  let bare: Proc | undefined;
  let idle, health, history;
  try {
    await waitForHealth(gw);
    bare = startBare();
    await waitForHealth(bare);
    await sleep(IDLE_SETTLE_MS);
    const gwTicks0 = cpuTicks(gw.pid);
    const bareTicks0 = cpuTicks(bare.pid);
    const gwWake0 = wakeups(gw.pid);
    const bareWake0 = wakeups(bare.pid);
    await sleep(IDLE_CPU_MS);
    const gwTicks1 = cpuTicks(gw.pid);
    const bareTicks1 = cpuTicks(bare.pid);
    const perMinute = (n: number) => round((n * 60_000) / IDLE_CPU_MS, 1);
    const gwWakeups = perMinute(wakeups(gw.pid) - gwWake0);
    const bareWakeups = perMinute(wakeups(bare.pid) - bareWake0);
    // RSS at the end of the idle window: IDLE_SETTLE_MS + IDLE_CPU_MS after the start.
    const gwRss = rssOf(gw.pid);
    const bareRss = rssOf(bare.pid);
    const pct = (ticks: number) => round((ticks / tickHz / (IDLE_CPU_MS / 1000)) * 100, 3);
    // The same window again, with a Prometheus scrape of GET /metrics every 15 s (computed
    // when scraped, no timer of its own: idle CPU should still read about 0).
    const scrapeTicks0 = cpuTicks(gw.pid);
    const scrapeEnd = Date.now() + IDLE_CPU_MS;
    let scrapes = 0;
    while (Date.now() < scrapeEnd) {
      if ((await getBody(GATEWAY_PORT, '/metrics', key)).includes('sms_gateway_info')) scrapes++;
      await sleep(Math.min(15_000, Math.max(0, scrapeEnd - Date.now())));
    }
    const scrapeCpuPercent = pct(cpuTicks(gw.pid) - scrapeTicks0);
    idle = {
      afterSeconds: (IDLE_SETTLE_MS + IDLE_CPU_MS) / 1000,
      wakeupsPerMinute: gwWakeups,
      bareWakeupsPerMinute: bareWakeups,
      commandLine: commandLine(gw.pid),
      bareAnonMb: bareRss.anonMb,
      rssMb: gwRss.rssMb,
      cpuPercent: pct(gwTicks1 - gwTicks0),
      cpuTicks: gwTicks1 - gwTicks0,
      rssAnonMb: gwRss.anonMb,
      rssFileMb: gwRss.fileMb,
      rssShmemMb: gwRss.shmemMb,
      bareRssMb: bareRss.rssMb,
      bareCpuPercent: pct(bareTicks1 - bareTicks0),
      scrapeCpuPercent,
      scrapes,
      timers: [
        "node:http Server connectionsCheckingInterval: Node's default, every 30 s (headers within 10 s and bodies within 15 s are enforced by the gateway's own timers, which exist only while such a connection or request does)",
        'per-connection keep-alive timers only while a client holds a connection open (none when idle)',
        'device facts: no timer, no call at start; a fact is read when asked for and older than its age limit',
        'webhook outbox: no timer without SMS_GATEWAY_WEBHOOK_URLS or pending deliveries (a timer exists only while deliveries wait)',
        'sent-box confirmation: no timer in simulated mode; in real mode only while a handed-off message awaits confirmation (checks at 5/15/30/60/90/120 s)',
        'inbox watcher: none while nothing listens for received SMS (with a listener it polls every ' +
          'SMS_GATEWAY_INBOX_POLL_SECONDS, default 30 s; every 5 s for 3 minutes after a hand-off or a new SMS)',
        'rate limiter: no timer (token buckets refill and are pruned lazily on requests)',
      ],
    };

    health = await measureHealth(gw, bare, tickHz);
    await stopProc(bare);

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
  }
  log(
    `idle without the V8 flags (dist/main.js run directly, with --no-optimize-for-size), ${(IDLE_SETTLE_MS + IDLE_CPU_MS) / 1000} s ...`,
  );
  idle = { ...idle, withoutFlags: await idleRssWithoutFlags(home) };
  return { idle, health, history };
}

/**
 * The same idle gateway without the V8 flags: dist/main.js run directly (not the launcher's
 * first line) with --no-optimize-for-size (src/core/memory-mode.ts sets nothing then): what
 * the flags save.
 */
async function idleRssWithoutFlags(home: string) {
  const gw = startProc('gateway-without-flags', [MEMORY_MODE_OFF, MAIN, 'start'], gatewayEnv(home), GATEWAY_PORT);
  try {
    await waitForHealth(gw);
    await sleep(IDLE_SETTLE_MS + IDLE_CPU_MS);
    return { ...rssOf(gw.pid), commandLine: commandLine(gw.pid) };
  } finally {
    await stopProc(gw);
  }
}
