// npm run bench: measures the built gateway (dist/, started as `node bin/sms-gateway start`)
// against a bare Fastify server answering the same /health JSON (scripts/bare-server.ts,
// the floor for this stack), prints a table and writes bench-results.json at the repo root.
// Phases: startup (median of 5 fresh processes each), idle RSS/CPU, /health CPU per 1000
// requests at a fixed open-loop load, history reads, send latency with an instantly
// succeeding fake termux-sms-send, a 60 s mixed soak for RSS growth, and the queue
// (acceptance of 100 recipients, CPU per drained message, RSS with 10 000 waiting), and a
// connection flood from one host (what it holds, RSS, another caller's answers), and the
// fair-share shapes of issue 20 (a new caller's answers during each; `--fair-share` runs
// only these, about a minute), and the phone's battery of issue 37 (Termux:API calls per
// idle hour on simulated time, the reply latency; `--battery` runs only this, about a minute).
// `--cost` runs only the start and the paired /health runs (scripts/bench/phase-cost.ts);
// `--queue` only the queue phase (scripts/bench/phase-queue.ts; BENCH_QUEUE_DRAIN messages);
// `--idle` only the idle figures (phase-idle.ts, about 3 minutes; `--idle --plain` with the
// defaults, no e-mail intake and no SMSGate registration, as releases before 0.5 were measured). The idle figures and the
// battery's idle hour run with the release's idle setting: the e-mail intake on and an
// SMSGate-dialect system:ping registered. `--out <file>` writes the full run's results to
// that file too (the release keeps them as docs/bench-<version>.json).
// Ordering constraint: the whole run holds the test suite's port-8080 lock directory
// (os.tmpdir()/sms-gateway-test-port-8080.lock), so it never collides with tests that start
// the real gateway. Everything it starts is stopped at the end, on failure and on SIGINT.
// Nothing runs through a shell; all traffic goes to 127.0.0.0/8.
// The parts live in scripts/bench/: settings, measure (numbers and /proc sampling),
// processes (start, stop, clean up), load (the open-loop generator), history, the
// phases, report (the tables; report-battery the battery's), and the battery phase's rig
// (idle-rig: the fake phone and the gateway on it; sim-clock: simulated time).
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { VERSION } from '../src/core/package-root.js';
import { PORT_LOCK } from './port-lock.js';
import { clockTicks, log, round } from './bench/measure.js';
import { assertPortFree, installCleanup, releaseLock, run, stopAll, takeLock } from './bench/processes.js';
import { startupPhase } from './bench/phase-startup.js';
import { readsPhase } from './bench/phase-reads.js';
import { idlePhase } from './bench/phase-idle.js';
import { settingLine } from './bench/idle-setting.js';
import { sendsPhase } from './bench/phase-sends.js';
import { queuePhase } from './bench/phase-queue.js';
import { floodPhase } from './bench/phase-flood.js';
import { fairSharePhase } from './bench/phase-fair-share.js';
import { costPhase, printCost } from './bench/phase-cost.js';
import { batteryPhase } from './bench/phase-battery.js';
import { printBatteryTable } from './bench/report-battery.js';
import { printFairShareTable, printIssueTable, printReport } from './bench/report.js';
import { BARE_PORT, BARE_SERVER, BATTERY, QUICK, RESULTS, ROOT } from './bench/settings.js';

installCleanup();

/** `--out <file>`: where the full run's results are written too (relative to the working directory). */
function outFile(): string | undefined {
  const i = process.argv.indexOf('--out');
  if (i < 0) return undefined;
  const file = process.argv[i + 1];
  if (!file || file.startsWith('--')) throw new Error('--out needs a file name, e.g. --out docs/bench-0.5.0.json');
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), file);
  if (!existsSync(dirname(path))) throw new Error(`--out ${file}: the folder ${dirname(path)} does not exist`);
  return path;
}

async function main(): Promise<number> {
  const runStarted = performance.now();
  const out = outFile();
  if (!existsSync(join(ROOT, 'dist/main.js')) || !existsSync(BARE_SERVER)) {
    throw new Error('dist/ or dist-scripts/ is missing: run `npm run bench` (it builds both)');
  }
  const notes: string[] = [];
  const { hz: tickHz, source: tickSource } = clockTicks();
  notes.push(
    `CPU times from /proc/<pid>/stat utime+stime at ${tickHz} ticks/s (${tickSource}), so each CPU reading has a ${round(1000 / tickHz)} ms resolution.`,
  );
  const cpus = os.cpus();
  const loadAvgAtStart = os.loadavg().map((n) => round(n));
  const machine = {
    node: process.version,
    platform: os.platform(),
    arch: os.arch(),
    cpuModel: cpus[0]?.model ?? 'unknown',
    cpuCount: cpus.length,
    totalMemGb: round(os.totalmem() / 1024 ** 3),
    loadAvgAtStart,
  };
  if ((loadAvgAtStart[0] ?? 0) > 0.5) {
    notes.push(
      `The machine was not idle at the start (load average ${loadAvgAtStart.join(', ')} on ${cpus.length} CPUs): other work (e.g. test runs) adds noise to every number.`,
    );
  }

  await takeLock();
  run.workDir = mkdtempSync(join(os.tmpdir(), 'smsgw-bench-'));
  await assertPortFree(BARE_PORT);
  log(
    `sms-gateway ${VERSION} bench on ${machine.cpuModel} x${machine.cpuCount}, node ${machine.node}; holding ${PORT_LOCK}`,
  );

  if (process.argv.includes('--fair-share')) {
    printFairShareTable(await fairSharePhase());
    return 0;
  }
  if (process.argv.includes('--cost')) {
    printCost(await costPhase(tickHz));
    return 0;
  }
  if (process.argv.includes('--idle')) {
    const idle = await idlePhase(tickHz, process.argv.includes('--plain'));
    log(JSON.stringify(idle, null, 2));
    log(settingLine(idle.setting));
    return 0;
  }
  if (process.argv.includes('--battery')) {
    printBatteryTable(await batteryPhase(BATTERY));
    return 0;
  }
  if (process.argv.includes('--queue')) {
    log(JSON.stringify(await queuePhase(tickHz), null, 2));
    return 0;
  }
  // 1. Startup; 2. idle, /health and history reads; 3. sends and the soak.
  const startup = await startupPhase(tickHz);
  const { idle, health, history } = await readsPhase(tickHz);
  if (QUICK) {
    const queue = await queuePhase(tickHz);
    const battery = await batteryPhase(BATTERY);
    printIssueTable({ startup, idle, health, queue }, machine.node);
    printBatteryTable(battery);
    log(
      `quick mode: shorter phases, no sends, soak or flood; bench-results.json${out ? ' and --out' : ''} are not written`,
    );
    return 0;
  }
  const { send, soak, fakeMs } = await sendsPhase();
  const queue = await queuePhase(tickHz);
  const flood = await floodPhase();
  const fairShare = await fairSharePhase();
  const battery = await batteryPhase(BATTERY);
  notes.push(settingLine(idle.setting));
  notes.push(
    `The fake termux-sms-send (sh + mkdir + date + cat, run directly) takes ${fakeMs} ms by itself: that part of the send latency is the fake, not the gateway.`,
  );

  const runSeconds = round((performance.now() - runStarted) / 1000, 1);
  const results = {
    date: new Date().toISOString(),
    version: VERSION,
    machine,
    startup,
    idle,
    health,
    history,
    send,
    soak,
    queue,
    flood,
    fairShare,
    battery,
    runSeconds,
    notes,
  };
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
  if (out) writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);

  printReport({ startup, idle, health, history, send, soak, queue, flood, fairShare, notes });
  printIssueTable({ startup, idle, health, queue }, machine.node);
  printFairShareTable(fairShare);
  printBatteryTable(battery);
  log(`wrote ${RESULTS}${out ? ` and ${out}` : ''} (run time ${runSeconds} s)`);
  return 0;
}

try {
  const code = await main();
  releaseLock();
  process.exitCode = code;
} catch (err) {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  await stopAll();
  process.exitCode = 1;
}
