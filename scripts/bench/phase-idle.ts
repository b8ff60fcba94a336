// The idle figures of the reads phase, with the release's idle setting (idle-setting.ts: the
// e-mail intake on, an SMSGate system:ping registered): the gateway (simulated, 1000 messages
// in history) and the bare server started side by side, their RSS, CPU and wake-ups a minute
// after the start's own work has settled, the CPU again with /metrics scraped every 15 s, and
// the same gateway without the launcher's V8 flags. `--idle` runs only this (idlePhase), and
// `--idle --plain` with the defaults, for comparing with releases measured before the setting.
import { setTimeout as sleep } from 'node:timers/promises';
import { fillHistory } from './history.js';
import { describeSetting, idleSetting, registerPing, type IdleSetting } from './idle-setting.js';
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
import { GATEWAY_PORT, MAIN, HISTORY_ROWS, IDLE_CPU_MS, IDLE_SETTLE_MS } from './settings.js';
import { MEMORY_MODE_OFF } from '../../src/core/memory-mode.js';

export interface IdlePair {
  home: string;
  key: string;
  setting: IdleSetting;
  gw: Proc;
  bare: Proc;
}

/** The gateway with the idle setting and the bare server, both answering. */
export async function startIdlePair(plain = false): Promise<IdlePair> {
  const home = newHome('history');
  await fillHistory(home, HISTORY_ROWS);
  const key = apiKey(home);
  const setting = await idleSetting(plain);
  const on = plain
    ? 'no SMTP, no SMSGate registration'
    : `SMTP on port ${setting.smtpPort}, SMSGate system:ping registered`;
  log(
    `idle: gateway (simulated, ${HISTORY_ROWS} messages in history, ${on}) and bare, ${IDLE_SETTLE_MS / 1000} s settle + ${IDLE_CPU_MS / 1000} s CPU ...`,
  );
  const gw = startGateway(home, undefined, setting.env);
  await waitForHealth(gw);
  await registerPing(GATEWAY_PORT, key, setting);
  const bare = startBare();
  await waitForHealth(bare);
  return { home, key, setting, gw, bare };
}

/** The idle window: RSS, CPU and wake-ups of both, then the gateway's CPU while scraped. */
export async function measureIdle({ gw, bare, key, setting }: IdlePair, tickHz: number) {
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
  return {
    setting: await describeSetting(setting),
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
      'SMSGate system:ping: one timer while a system:ping registration exists, due every SMS_GATEWAY_PING_MINUTES (15)',
      'e-mail intake: a listening socket; timers only while a client is connected',
    ],
  };
}

/**
 * The same idle gateway without the V8 flags: dist/main.js run directly (not the launcher's
 * first line) with --no-optimize-for-size (src/core/memory-mode.ts sets nothing then): what
 * the flags save. The same setting: the intake on, the ping registered (kept in the home).
 */
export async function idleRssWithoutFlags(home: string, setting: IdleSetting) {
  const env = { ...gatewayEnv(home), ...setting.env };
  const gw = startProc('gateway-without-flags', [MEMORY_MODE_OFF, MAIN, 'start'], env, GATEWAY_PORT);
  try {
    await waitForHealth(gw);
    await sleep(IDLE_SETTLE_MS + IDLE_CPU_MS);
    return { ...rssOf(gw.pid), commandLine: commandLine(gw.pid) };
  } finally {
    await stopProc(gw);
  }
}

/**
 * Only the idle figures (`npm run bench -- --idle`): the pair started, measured, stopped; then
 * without the flags. `plain`: with the defaults instead of the idle setting (`--idle --plain`).
 */
export async function idlePhase(tickHz: number, plain = false) {
  const pair = await startIdlePair(plain);
  let idle;
  try {
    idle = await measureIdle(pair, tickHz);
  } finally {
    await stopProc(pair.bare);
    await stopProc(pair.gw);
    await pair.setting.receiver.close();
  }
  log(`idle without the V8 flags (dist/main.js run directly, with --no-optimize-for-size) ...`);
  return { ...idle, withoutFlags: await idleRssWithoutFlags(pair.home, pair.setting) };
}
