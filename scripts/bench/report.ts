// The bench's table: one row per metric, gateway against the bare floor, each target
// marked met or MISSED, then the notes and any errors seen.
import { log } from './measure.js';
import { ISSUE_TARGETS, STARTUP_RUNS, TARGETS } from './settings.js';
import type { startupPhase } from './phase-startup.js';
import type { readsPhase } from './phase-reads.js';
import type { sendsPhase } from './phase-sends.js';
import type { queuePhase } from './phase-queue.js';
import type { floodPhase } from './phase-flood.js';
import type { fairSharePhase } from './phase-fair-share.js';
import { MAX_CONNECTIONS_PER_ADDRESS } from '../../src/http/flood/limits.js';
import { MEMORY_BOUND_MB, WITNESS_P99_MS, WITNESS_SERVED } from '../../test/fixtures/flood-shapes.js';

export type Row = [metric: string, gateway: string, bare: string, target: string, result: string];

/** The header, a rule and the rows, each column as wide as its widest cell. */
export function printTable(header: Row, rows: Row[]): void {
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
  const line = (r: Row) =>
    r
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) log(line(r));
}

export interface BenchResults {
  startup: Awaited<ReturnType<typeof startupPhase>>;
  idle: Awaited<ReturnType<typeof readsPhase>>['idle'];
  health: Awaited<ReturnType<typeof readsPhase>>['health'];
  history: Awaited<ReturnType<typeof readsPhase>>['history'];
  send: Awaited<ReturnType<typeof sendsPhase>>['send'];
  soak: Awaited<ReturnType<typeof sendsPhase>>['soak'];
  queue: Awaited<ReturnType<typeof queuePhase>>;
  flood: Awaited<ReturnType<typeof floodPhase>>;
  fairShare: Awaited<ReturnType<typeof fairSharePhase>>;
  notes: string[];
}

export function printReport({ startup, idle, health, history, send, soak, queue, flood, notes }: BenchResults): void {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: Row[] = [
    [
      `startup to first 200 /health, ms (median of ${STARTUP_RUNS})`,
      `${startup.gatewayMs}`,
      `${startup.bareMs}`,
      '',
      '',
    ],
    ['  warm start (same home, compile cache), ms', `${startup.gatewayWarmMs}`, `${startup.bareMs}`, '', ''],
    [
      '  startup ratio',
      `${startup.ratio}`,
      '1',
      `<= ${TARGETS.startupRatio}`,
      met(startup.ratio <= TARGETS.startupRatio),
    ],
    ['  startup CPU, ms (median)', `${startup.gatewayCpuMs}`, `${startup.bareCpuMs}`, '', ''],
    [
      `idle RSS after ${idle.afterSeconds} s, MB`,
      `${idle.rssMb}`,
      `${idle.bareRssMb}`,
      `<= ${TARGETS.idleRssMb}`,
      met(idle.rssMb <= TARGETS.idleRssMb),
    ],
    ['  RSS anon / file, MB', `${idle.rssAnonMb} / ${idle.rssFileMb}`, '', '', ''],
    [
      'idle CPU over 20 s, %',
      `${idle.cpuPercent}`,
      `${idle.bareCpuPercent}`,
      `< ${TARGETS.idleCpuPercent}`,
      met(idle.cpuPercent < TARGETS.idleCpuPercent),
    ],
    [
      `idle CPU with /metrics scraped every 15 s (${idle.scrapes} scrapes), %`,
      `${idle.scrapeCpuPercent}`,
      '',
      `< ${TARGETS.idleCpuPercent}`,
      met(idle.scrapes > 0 && idle.scrapeCpuPercent < TARGETS.idleCpuPercent),
    ],
    ['/health CPU per 1000 req, ms', `${health.gatewayCpuMsPerKReq}`, `${health.bareCpuMsPerKReq}`, '', ''],
    [
      '  /health CPU ratio',
      `${health.ratio}`,
      '1',
      `<= ${TARGETS.healthRatio}`,
      met(health.ratio <= TARGETS.healthRatio),
    ],
    [
      '  /health p50 / p99, ms',
      `${health.p50Ms} / ${health.p99Ms}`,
      `${health.bareP50Ms} / ${health.bareP99Ms}`,
      '',
      '',
    ],
    [
      '  /health requests / failed / non-200',
      `${health.requests} / ${health.failed} / ${health.non200}`,
      `${health.bareRequests} / ${health.bareFailed} / ${health.bareNon200}`,
      '0 failed',
      met(health.failed + health.non200 + health.bareFailed + health.bareNon200 === 0),
    ],
    ['history CPU per 1000 req, ms', `${history.cpuMsPerKReq}`, '', '', ''],
    ['  history p50 / p99, ms', `${history.p50Ms} / ${history.p99Ms}`, '', '', ''],
    [
      '  history requests / failed / non-200',
      `${history.requests} / ${history.failed} / ${history.non200}`,
      '',
      '0 failed',
      met(history.failed + history.non200 === 0),
    ],
    [
      'send p50 / p99, ms',
      `${send.p50Ms} / ${send.p99Ms}`,
      `fake alone ${send.fakeExecMs}`,
      `p50 <= ${TARGETS.sendP50Ms}`,
      met(send.p50Ms <= TARGETS.sendP50Ms),
    ],
    [
      '  sends 200 / failed / other, hand-offs',
      `${send.samples} / ${send.failed} / ${send.non200}, ${send.handoffs}`,
      '',
      '',
      '',
    ],
    [
      'soak RSS growth over 60 s, %',
      `${soak.rssGrowthPercent}`,
      `${soak.rssStartMb} -> ${soak.rssEndMb} MB`,
      `<= ${TARGETS.soakGrowthPercent}`,
      met(soak.rssGrowthPercent <= TARGETS.soakGrowthPercent),
    ],
    [
      '  soak requests / failed / unexpected',
      `${soak.requests} / ${soak.failed} / ${soak.unexpectedStatus}`,
      '',
      '0 failed',
      met(soak.failed + soak.unexpectedStatus === 0),
    ],
    ['queue: accept 100 recipients p50 / p99, ms', `${queue.acceptP50Ms} / ${queue.acceptP99Ms}`, '', '', ''],
    [
      'queue: CPU per message, accepted to settled, ms',
      `${queue.cpuMsPerMessage}`,
      `floor ${queue.floorMsPerMessage}; ${queue.drained} in ${queue.drainSeconds} s`,
      '',
      '',
    ],
    ['queue: RSS with 10 000 waiting, MB', `${queue.rssMbAt10k}`, `idle ${idle.rssMb}`, '', ''],
    [
      `flood: connections from one host in ${flood.seconds} s / held at the end`,
      `${flood.connections} / ${flood.heldAtEnd}`,
      '',
      `held <= ${MAX_CONNECTIONS_PER_ADDRESS}`,
      met(flood.heldAtEnd <= MAX_CONNECTIONS_PER_ADDRESS),
    ],
    [
      '  flood: RSS before / at most / 10 s after, MB',
      `${flood.rssBeforeMb} / ${flood.rssMaxMb} / ${flood.rssAfterMb}`,
      '',
      '',
      '',
    ],
    [
      "  flood: another caller's /health ok / failed, p50 / max ms",
      `${flood.witnessOk} / ${flood.witnessFailed}, ${flood.witnessP50Ms} / ${flood.witnessMaxMs}`,
      '',
      '0 failed',
      met(flood.witnessFailed === 0 && flood.witnessOk > 0),
    ],
  ];
  const header: Row = ['metric', 'gateway', 'bare / floor', 'target', 'result'];
  log('');
  printTable(header, rows);
  log('');
  for (const n of notes) log(`note: ${n}`);
  const errors = [...health.errors, ...history.errors, ...send.errors, ...soak.errors];
  for (const e of errors) log(`error seen: ${e}`);
}

type IssueInput = Pick<BenchResults, 'startup' | 'idle' | 'health' | 'queue'>;

/** The issue's table (#21): every figure against bare Fastify from this same run. */
export function printIssueTable({ startup, idle, health, queue }: IssueInput, node: string): void {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const T = ISSUE_TARGETS;
  const warmRatio = Math.round((startup.gatewayWarmMs / startup.bareMs) * 100) / 100;
  const overBare = Math.round((idle.rssMb - idle.bareRssMb) * 10) / 10;
  const overFloor = Math.round((queue.cpuMsPerMessage - queue.floorMsPerMessage) * 1000) / 1000;
  const rows: Row[] = [
    [
      'start to first 200, cold, ms',
      `${startup.gatewayMs}`,
      `${startup.bareMs}`,
      `${startup.ratio}x (<= ${T.coldStartRatio}x)`,
      met(startup.ratio <= T.coldStartRatio),
    ],
    [
      'start, warm compile cache, ms',
      `${startup.gatewayWarmMs}`,
      `${startup.bareMs}`,
      `${warmRatio}x (<= ${T.warmStartRatio}x)`,
      met(warmRatio <= T.warmStartRatio),
    ],
    [
      `idle RSS after ${idle.afterSeconds} s, MB (anon)`,
      `${idle.rssMb} (${idle.rssAnonMb})`,
      `${idle.bareRssMb} (${idle.bareAnonMb})`,
      `+${overBare} (<= +${T.idleRssOverBareMb})`,
      met(overBare <= T.idleRssOverBareMb),
    ],
    [
      '  the same without the V8 flags, MB (anon)',
      `${idle.withoutFlags.rssMb} (${idle.withoutFlags.anonMb})`,
      '',
      `flags save ${Math.round((idle.withoutFlags.rssMb - idle.rssMb) * 10) / 10}`,
      '',
    ],
    [
      `/health CPU per request, us (median of ${health.ratios.length} paired runs: ${health.ratios.join(', ')})`,
      `${health.gatewayCpuMsPerKReq}`,
      `${health.bareCpuMsPerKReq}`,
      `${health.ratio}x (<= ${T.healthCpuRatio}x)`,
      met(health.ratio <= T.healthCpuRatio),
    ],
    [
      'queue CPU per message, accepted to settled, ms',
      `${queue.cpuMsPerMessage}`,
      `floor ${queue.floorMsPerMessage}`,
      `+${overFloor} (<= +${T.queueCpuMsOverFloor})`,
      met(overFloor <= T.queueCpuMsOverFloor),
    ],
    [
      "  the floor: one hand-off + two fsync'd commits in a bare Node (launcher flags), ms",
      `${queue.floorMsPerMessage}`,
      '',
      `${queue.floorCount} at 1 a second`,
      '',
    ],
    [
      'idle wake-ups per minute (all threads)',
      `${idle.wakeupsPerMinute}`,
      `${idle.bareWakeupsPerMinute}`,
      `<= ${T.idleWakeupsPerMinute}`,
      met(idle.wakeupsPerMinute <= T.idleWakeupsPerMinute),
    ],
    [
      `idle CPU with /metrics scraped every 15 s (${idle.scrapes} scrapes), %`,
      `${idle.scrapeCpuPercent}`,
      `${idle.bareCpuPercent} (no scrape)`,
      `< ${TARGETS.idleCpuPercent}`,
      met(idle.scrapes > 0 && idle.scrapeCpuPercent < TARGETS.idleCpuPercent),
    ],
  ];
  const header: Row = ['figure (issue #21)', 'gateway', 'bare', 'ratio / over bare (target)', 'result'];
  log('');
  log(
    `node ${node}; gateway started as: ${idle.commandLine}${process.env.NODE_OPTIONS ? ` (NODE_OPTIONS=${process.env.NODE_OPTIONS})` : ''}`,
  );
  printTable(header, rows);
}

/** Issue 20's table: each flood shape, the witness's answers and latency, RSS over idle. */
export function printFairShareTable(fair: Awaited<ReturnType<typeof fairSharePhase>>): void {
  const rows: Row[] = fair.shapes.map((s) =>
    s.skipped
      ? [s.name, 'skipped', s.skipped, '', '']
      : [
          s.name,
          `${s.served}/${s.total}, ${s.p50Ms} / ${s.p99Ms} / ${s.maxMs}`,
          `+${s.rssPeakOverIdleMb}`,
          `${s.readyAfterMs}`,
          s.met ? 'met' : 'MISSED',
        ],
  );
  const header: Row = [
    'flood shape (issue #20)',
    `witness served, p50 / p99 / max ms (${fair.witnessSeconds} s)`,
    'RSS peak over idle, MB',
    'flood ready after, ms',
    'result',
  ];
  log('');
  log(
    `fair share: idle RSS ${fair.idleRssMb} MB; met = >= ${WITNESS_SERVED * 100} % served, p99 < ${WITNESS_P99_MS} ms, RSS peak <= idle + ${MEMORY_BOUND_MB} MB`,
  );
  printTable(header, rows);
  for (const s of fair.shapes) if (s.closed) log(`${s.name}: the gateway closed ${s.closed}`);
}
