// npm run bench: measures the built gateway (dist/, started as `node bin/sms-gateway start`)
// against a bare Fastify server answering the same /health JSON (scripts/bare-server.ts,
// the floor for this stack), prints a table and writes bench-results.json at the repo root.
// Phases: startup (median of 5 fresh processes each), idle RSS/CPU, /health CPU per 1000
// requests at a fixed open-loop load, history reads, send latency with an instantly
// succeeding fake termux-sms-send, and a 60 s mixed soak for RSS growth.
// Ordering constraint: the whole run holds the test suite's port-8080 lock directory
// (os.tmpdir()/sms-gateway-test-port-8080.lock), so it never collides with tests that start
// the real gateway. Everything it starts is stopped at the end, on failure and on SIGINT.
// Nothing runs through a shell; all traffic goes to 127.0.0.0/8.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../dist/store/database.js';
import { createStatsStore } from '../dist/store/stats.js';
import { createMessageStore, type Reason } from '../dist/store/messages.js';
import { newMessageId } from '../dist/ids.js';
import { countSegments } from '../dist/sms/segments.js';
import { chooseTimeZone, createCalendar } from '../dist/time-zone.js';
import { VERSION } from '../dist/version.js';
import { PORT_LOCK, releasePortLock, takePortLock } from './port-lock.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const CLI = join(ROOT, 'bin/sms-gateway');
const BARE_SERVER = join(ROOT, 'dist-scripts/bare-server.js');
const FAKE_TERMUX = join(ROOT, 'test/fixtures/bin/fake-termux');
const RESULTS = join(ROOT, 'bench-results.json');
const GATEWAY_PORT = 8080; // fixed in src/gateway.ts
const BARE_PORT = 8089;

// The offered load: 50 loopback callers (127.0.0.10 .. 127.0.0.59) at 8 req/s each, under
// the gateway's per-caller limit of 10/s, open loop.
const CALLERS = 50;
const PER_CALLER_HZ = 8;
const LOAD_MS = 10_000;
const WARMUP_MS = 2_000;
const STARTUP_RUNS = 5;
const IDLE_SETTLE_MS = 10_000;
const IDLE_CPU_MS = 20_000;
const HISTORY_ROWS = 1000;
const SEND_SAMPLES = 25;
const SEND_SPACING_MS = 1050;
const SOAK_WARMUP_MS = 10_000;
const SOAK_MS = 60_000;
const REQUEST_TIMEOUT_MS = 10_000;

const TARGETS = {
  startupRatio: 1.5,
  idleCpuPercent: 0.5,
  idleRssMb: 75,
  healthRatio: 1.6,
  sendP50Ms: 20,
  soakGrowthPercent: 10,
};

// --- what must be undone at the end, on failure and on SIGINT --------------------------

const children = new Set<ChildProcess>();
let workDir: string | undefined;
let lockHeld = false;

function releaseLock(): void {
  if (!lockHeld) return;
  releasePortLock();
  lockHeld = false;
}

/** Last resort (process exit): kill what is still running, remove temp files and the lock. */
function cleanupSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
  workDir = undefined;
  releaseLock();
}

process.on('exit', cleanupSync);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    process.stderr.write(`\nbench: ${signal}: stopping everything it started\n`);
    void Promise.all([...children].map((c) => stopChild(c, 2000))).finally(() => {
      cleanupSync();
      process.exit(130);
    });
  });
}

// --- small helpers ---------------------------------------------------------------------

const log = (line: string) => process.stdout.write(`${line}\n`);
const round = (n: number, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};
const median = (xs: number[]) => percentile(xs, 50);

/** Nearest-rank percentile. */
function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

function clockTicks(): { hz: number; source: string } {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 });
  const hz = Number.parseInt(r.stdout ?? '', 10);
  if (r.status === 0 && Number.isInteger(hz) && hz > 0) return { hz, source: 'getconf CLK_TCK' };
  return { hz: 100, source: 'assumed 100 (getconf CLK_TCK failed)' };
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

interface Rss {
  rssMb: number;
  anonMb: number;
  fileMb: number;
  shmemMb: number;
}

/** VmRSS and its parts from /proc/<pid>/status (kB there, MB here). */
function rssOf(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) : NaN;
  };
  return {
    rssMb: round(kb('VmRSS') / 1024),
    anonMb: round(kb('RssAnon') / 1024),
    fileMb: round(kb('RssFile') / 1024),
    shmemMb: round(kb('RssShmem') / 1024),
  };
}

// --- the port-8080 lock (shared with test/helper.ts holdPort8080) ------------------------

async function takeLock(): Promise<void> {
  await takePortLock({
    timeoutMs: 10 * 60_000,
    onWait: (owner) => log(`waiting for the port-8080 lock ${PORT_LOCK} (held by pid ${owner}, a test that starts the gateway)...`),
  });
  lockHeld = true;
}

/** Fails if something already answers on the port (a gateway started outside the lock). */
async function assertPortFree(port: number): Promise<void> {
  const inUse = await new Promise<boolean>((res) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      res(true);
    });
    socket.once('error', () => res(false));
  });
  if (inUse) throw new Error(`port ${port} is already in use on 127.0.0.1: stop what listens there first`);
}

// --- processes under test --------------------------------------------------------------

interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  logFile: string;
  spawnedAt: number;
  exited: Promise<void>;
}

function startProc(name: string, argv: string[], env: NodeJS.ProcessEnv, port: number): Proc {
  const logFile = join(workDir!, `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`);
  const fd = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  // Output goes to a file, so the bench spends no CPU reading the gateway's request log.
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  children.add(child);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  void exited.then(() => children.delete(child));
  return { name, child, pid: child.pid, port, logFile, spawnedAt, exited };
}

function logTail(p: Proc): string {
  try {
    return readFileSync(p.logFile, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}

async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited;
  }
}

const stopProc = (p: Proc) => stopChild(p.child);
const started = async (p: Proc) => {
  await waitForHealth(p);
  return p;
};

/** Polls GET /health every 5 ms until 200; returns ms since spawn and CPU ticks used by then. */
async function waitForHealth(p: Proc, timeoutMs = 30_000): Promise<{ ms: number; ticks: number }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    if (p.child.exitCode !== null || p.child.signalCode !== null) {
      throw new Error(`${p.name} exited before answering /health:\n${logTail(p)}`);
    }
    const status = await probeHealth(p.port);
    if (status === 200) {
      const ms = performance.now() - p.spawnedAt;
      return { ms, ticks: cpuTicks(p.pid) };
    }
    if (performance.now() > deadline) throw new Error(`${p.name} did not answer /health in ${timeoutMs} ms:\n${logTail(p)}`);
    await sleep(5);
  }
}

function probeHealth(port: number): Promise<number> {
  return new Promise((res) => {
    const req = http.request(
      { host: '127.0.0.1', port, path: '/health', agent: false, localAddress: '127.0.0.2' },
      (r) => {
        r.resume();
        r.on('end', () => res(r.statusCode ?? 0));
        r.on('error', () => res(0));
      },
    );
    req.on('error', () => res(0));
    req.setTimeout(2000, () => req.destroy());
    req.end();
  });
}

function getBody(port: number, path: string): Promise<string> {
  return new Promise((res, rej) => {
    const req = http.request({ host: '127.0.0.1', port, path, agent: false, localAddress: '127.0.0.2' }, (r) => {
      let data = '';
      r.setEncoding('utf8');
      r.on('data', (d: string) => (data += d));
      r.on('end', () => res(data));
    });
    req.on('error', rej);
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end();
  });
}

/** PATH without any directory that holds termux-sms-send (so the gateway is simulated). */
function pathWithoutTermux(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !existsSync(join(dir, 'termux-sms-send')))
    .join(delimiter);
}

function gatewayEnv(home: string, fake?: { bin: string; state: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SMS_GATEWAY_') && k !== 'LOG_LEVEL') env[k] = v;
  }
  env.SMS_GATEWAY_HOME = home;
  env.PATH = fake ? `${fake.bin}${delimiter}${pathWithoutTermux()}` : pathWithoutTermux();
  if (fake) env.FAKE_TERMUX_DIR = fake.state;
  return env;
}

function newHome(label: string): string {
  const home = join(workDir!, `home-${label}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(home, { mode: 0o700 });
  return home;
}

const startGateway = (home: string, fake?: { bin: string; state: string }) =>
  startProc('gateway', [CLI, 'start'], gatewayEnv(home, fake), GATEWAY_PORT);
const startBare = () => startProc('bare', [BARE_SERVER, String(BARE_PORT), VERSION], { PATH: pathWithoutTermux() }, BARE_PORT);

function apiKey(home: string): string {
  const r = spawnSync(process.execPath, [CLI, 'key', 'show'], { env: gatewayEnv(home), encoding: 'utf8', timeout: 30_000 });
  const key = (r.stdout ?? '').trim();
  if (r.status !== 0 || key === '') throw new Error(`sms-gateway key show failed (${r.status}): ${r.stderr}`);
  return key;
}

// --- history: 1000 realistic rows through the project's own store ------------------------

const BODIES = [
  'Your verification code is 482913. It expires in 10 minutes.',
  'Reminder: your appointment with Dr. Meyer is tomorrow at 09:30, Hauptstr. 12. Reply STOP to opt out.',
  'Server backup finished OK (412 GB, 37 min).',
  'ALERT: disk /var is 91% full on nas-01 since 03:12.',
  'Paket 📦 wird heute zwischen 14–16 Uhr zugestellt. Sendungsnummer 00340434161094042557.',
  'Hi! Dinner at 8 still on? I can pick up the wine on the way, just tell me red or white.',
  'Your order #20931 has shipped and should arrive on Thursday. Track it at https://example.com/t/20931 . Thanks for shopping with us, and have a nice day! Questions? Reply to this message any time.',
  'Motion detected at the front door camera at 22:41. Open the app to see the clip.',
  'Temperature in the greenhouse dropped to 3.5 °C; heater switched on.',
  'Zahlung über 49,90 € eingegangen. Vielen Dank! Ihre Rechnung Nr. 2024-1187 ist damit beglichen.',
];
const FAILURE_REASONS: Reason[] = ['timeout', 'permission_denied', 'termux_api_error'];

function fillHistory(home: string, rows: number): void {
  const db = openDatabase(join(home, 'gateway.db'));
  try {
    const stats = createStatsStore(db);
    const store = createMessageStore(db, stats);
    const calendar = createCalendar(chooseTimeZone([process.env.TZ]));
    const now = Date.now();
    // Spread over the last 30 days, the newest 10 minutes ago: none counts against the
    // send budget (a rolling 60 s) when the gateway rebuilds it at start.
    const span = 30 * 86_400_000;
    const fill = db.transaction(() => {
      for (let i = 0; i < rows; i++) {
        const createdAt = now - 600_000 - Math.round(((rows - 1 - i) / rows) * span) - (i % 7) * 1000;
        const body = BODIES[i % BODIES.length]!;
        const seg = countSegments(body);
        const to = `+49 151 ${String(2_000_000 + ((i * 7919) % 7_000_000)).padStart(8, '0')}`;
        const sendTo = to.replace(/[ \-.()]/g, '');
        const simSlot = i % 7 === 0 ? 2 : 1;
        const idempotencyKey = i % 3 === 0 ? `order-${i}` : null;
        const id = newMessageId(createdAt);
        store.insertQueued({
          id,
          to,
          sendTo,
          body,
          segments: seg.segments,
          encoding: seg.encoding,
          simSlot,
          sourceIp: `192.168.1.${20 + (i % 5)}`,
          createdAt,
          statsDay: calendar.dayOf(createdAt),
          idempotencyKey,
          requestHash: idempotencyKey
            ? createHash('sha256').update(JSON.stringify([to, body, null])).digest('hex')
            : null,
        });
        const failed = i % 20 === 0;
        store.settle(id, {
          status: failed ? 'failed' : 'sent',
          reason: failed ? FAILURE_REASONS[(i / 20) % FAILURE_REASONS.length]! : null,
          billedSegments: failed ? 0 : seg.segments,
          at: createdAt + 2000 + (i % 5) * 1000,
          handedOff: !failed,
          smsStoreId: failed ? null : 5000 + i,
        });
      }
    });
    fill();
    const count = store.count();
    if (count !== rows) throw new Error(`history holds ${count} messages, expected ${rows}`);
  } finally {
    db.close();
  }
}

// --- open-loop load --------------------------------------------------------------------

interface Caller {
  address: string;
  agent: http.Agent;
}

function makeCallers(addresses: string[]): Caller[] {
  return addresses.map((address) => ({ address, agent: new http.Agent({ keepAlive: true, localAddress: address }) }));
}

function closeCallers(callers: Caller[]): void {
  for (const c of callers) c.agent.destroy();
}

const loopback = (from: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

interface RequestSpec {
  kind: string;
  caller: Caller;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

interface Sample {
  kind: string;
  status: number; // 0: the request failed (connection error, timeout)
  expect: number;
  ms: number;
  error?: string;
}

interface Event {
  at: number;
  spec?: RequestSpec;
  mark?: () => void;
}

function fire(port: number, spec: RequestSpec): Promise<Sample> {
  return new Promise((res) => {
    const started = performance.now();
    const done = (status: number, error?: string) =>
      res({ kind: spec.kind, status, expect: spec.expect, ms: performance.now() - started, ...(error ? { error } : {}) });
    const headers: Record<string, string> = { ...(spec.headers ?? {}) };
    if (spec.body !== undefined) headers['content-length'] = String(Buffer.byteLength(spec.body));
    const req = http.request(
      { host: '127.0.0.1', port, path: spec.path, method: spec.method ?? 'GET', headers, agent: spec.caller.agent },
      (r) => {
        r.resume();
        r.on('end', () => done(r.statusCode ?? 0));
        r.on('error', (err) => done(0, err.message));
      },
    );
    req.on('error', (err) => done(0, (err as NodeJS.ErrnoException).code ?? err.message));
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('timeout')));
    req.end(spec.body);
  });
}

/** Fires every event at its time (ms from the start) whether or not earlier ones answered. */
async function runOpenLoop(port: number, events: Event[]): Promise<{ samples: Sample[]; maxLateMs: number }> {
  const sorted = [...events].sort((a, b) => a.at - b.at);
  const pending: Promise<Sample>[] = [];
  let maxLateMs = 0;
  const t0 = performance.now() + 5;
  let i = 0;
  await new Promise<void>((res) => {
    const tick = () => {
      const now = performance.now() - t0;
      while (i < sorted.length && sorted[i]!.at <= now) {
        const e = sorted[i++]!;
        maxLateMs = Math.max(maxLateMs, now - e.at);
        if (e.spec) pending.push(fire(port, e.spec));
        e.mark?.();
      }
      if (i >= sorted.length) return res();
      setTimeout(tick, Math.max(0, sorted[i]!.at - (performance.now() - t0)));
    };
    tick();
  });
  return { samples: await Promise.all(pending), maxLateMs };
}

/** Each caller at `hz`, callers evenly staggered, for `durationMs`. */
function steady(callers: Caller[], hz: number, durationMs: number, spec: (c: Caller, n: number) => Omit<RequestSpec, 'caller'>, offsetMs = 0): Event[] {
  const period = 1000 / hz;
  const events: Event[] = [];
  callers.forEach((caller, ci) => {
    const phase = (ci / callers.length) * period;
    for (let n = 0; phase + n * period < durationMs; n++) {
      events.push({ at: offsetMs + phase + n * period, spec: { ...spec(caller, n), caller } });
    }
  });
  return events;
}

interface LoadResult {
  requests: number;
  failed: number;
  unexpected: number;
  cpuMsPerKReq: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  maxLateMs: number;
  errors: string[];
}

function summarize(samples: Sample[]) {
  const failed = samples.filter((s) => s.status === 0);
  const unexpected = samples.filter((s) => s.status !== 0 && s.status !== s.expect);
  const ms = samples.map((s) => s.ms);
  const errors = [...new Set([...failed.map((s) => `${s.kind}: ${s.error}`), ...unexpected.map((s) => `${s.kind}: HTTP ${s.status}`)])].slice(0, 5);
  return {
    requests: samples.length,
    failed: failed.length,
    unexpected: unexpected.length,
    p50Ms: round(percentile(ms, 50)),
    p99Ms: round(percentile(ms, 99)),
    maxMs: round(Math.max(...ms)),
    errors,
  };
}

/** A warm-up at the same load (not counted), then the measured window with CPU before/after. */
async function measureLoad(p: Proc, hz: number, spec: (c: Caller, n: number) => Omit<RequestSpec, 'caller'>, tickHz: number): Promise<LoadResult> {
  const callers = makeCallers(loopback(10, CALLERS));
  try {
    const warm = await runOpenLoop(p.port, steady(callers, hz, WARMUP_MS, spec));
    const before = cpuTicks(p.pid);
    const run = await runOpenLoop(p.port, steady(callers, hz, LOAD_MS, spec));
    const after = cpuTicks(p.pid);
    const s = summarize(run.samples);
    const w = summarize(warm.samples);
    return {
      ...s,
      failed: s.failed + w.failed,
      unexpected: s.unexpected + w.unexpected,
      errors: [...new Set([...s.errors, ...w.errors])],
      cpuMsPerKReq: round((((after - before) * 1000) / tickHz) / (run.samples.length / 1000)),
      maxLateMs: round(run.maxLateMs),
    };
  } finally {
    closeCallers(callers);
  }
}

// --- the fake termux-sms-send ------------------------------------------------------------

function makeFake(): { bin: string; state: string; calls: () => number } {
  const bin = join(workDir!, 'fake-bin');
  const state = join(workDir!, 'fake-state');
  mkdirSync(bin);
  mkdirSync(state);
  symlinkSync(FAKE_TERMUX, join(bin, 'termux-sms-send'));
  const dir = join(state, 'termux-sms-send.calls');
  return {
    bin,
    state,
    calls: () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.argv')).length : 0),
  };
}

/** How long the fake itself takes (sh + mkdir + date + cat), run directly: the send floor. */
function fakeExecMs(fake: { bin: string }, runs = 10): number {
  const state = join(workDir!, 'fake-timing');
  mkdirSync(state, { recursive: true });
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    spawnSync(join(fake.bin, 'termux-sms-send'), ['-n', '+15555550100', '-s', '0'], {
      input: 'timing',
      env: { PATH: pathWithoutTermux(), FAKE_TERMUX_DIR: state },
      timeout: 10_000,
    });
    times.push(performance.now() - t);
  }
  return round(median(times));
}

// --- main ------------------------------------------------------------------------------

type Row = [metric: string, gateway: string, bare: string, target: string, result: string];

async function main(): Promise<number> {
  const runStarted = performance.now();
  if (!existsSync(join(ROOT, 'dist/cli-main.js')) || !existsSync(BARE_SERVER)) {
    throw new Error('dist/ or dist-scripts/ is missing: run `npm run bench` (it builds both)');
  }
  const notes: string[] = [];
  const { hz: tickHz, source: tickSource } = clockTicks();
  notes.push(`CPU times from /proc/<pid>/stat utime+stime at ${tickHz} ticks/s (${tickSource}), so each CPU reading has a ${round(1000 / tickHz)} ms resolution.`);
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
    notes.push(`The machine was not idle at the start (load average ${loadAvgAtStart.join(', ')} on ${cpus.length} CPUs): other work (e.g. test runs) adds noise to every number.`);
  }

  await takeLock();
  workDir = mkdtempSync(join(os.tmpdir(), 'smsgw-bench-'));
  await assertPortFree(GATEWAY_PORT);
  await assertPortFree(BARE_PORT);
  log(`sms-gateway ${VERSION} bench on ${machine.cpuModel} x${machine.cpuCount}, node ${machine.node}; holding ${PORT_LOCK}`);

  // 1. Startup: process start to the first 200 /health, fresh processes, interleaved.
  log(`startup: ${STARTUP_RUNS} x gateway (fresh home, simulated) and bare ...`);
  const gwStart: { ms: number; cpuMs: number }[] = [];
  const gwWarm: { ms: number; cpuMs: number }[] = [];
  const bareStart: { ms: number; cpuMs: number }[] = [];
  // Warm: one home started again and again, as on the phone (Node's compile cache lives
  // in the home; the first start fills it and is not counted).
  const warmHome = newHome('warm');
  await stopProc(await started(startGateway(warmHome)));
  for (let i = 0; i < STARTUP_RUNS; i++) {
    for (const [home, into] of [[newHome(`startup${i}`), gwStart], [warmHome, gwWarm]] as const) {
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

  // 2. Idle, then /health and history load, on one simulated gateway with 1000 messages.
  const home = newHome('history');
  fillHistory(home, HISTORY_ROWS);
  const key = apiKey(home);
  log(`idle: gateway (simulated, ${HISTORY_ROWS} messages in history) and bare, ${IDLE_SETTLE_MS / 1000} s settle + ${IDLE_CPU_MS / 1000} s CPU ...`);
  const gw = startGateway(home);
  let bare: Proc | undefined;
  let idle, health, history;
  try {
    await waitForHealth(gw);
    bare = startBare();
    await waitForHealth(bare);
    const gwBody = await getBody(GATEWAY_PORT, '/health');
    const bareBody = await getBody(BARE_PORT, '/health');
    await sleep(IDLE_SETTLE_MS);
    const gwRss = rssOf(gw.pid);
    const bareRss = rssOf(bare.pid);
    const gwTicks0 = cpuTicks(gw.pid);
    const bareTicks0 = cpuTicks(bare.pid);
    await sleep(IDLE_CPU_MS);
    const gwTicks1 = cpuTicks(gw.pid);
    const bareTicks1 = cpuTicks(bare.pid);
    const pct = (ticks: number) => round((ticks / tickHz / (IDLE_CPU_MS / 1000)) * 100, 3);
    idle = {
      rssMb: gwRss.rssMb,
      cpuPercent: pct(gwTicks1 - gwTicks0),
      cpuTicks: gwTicks1 - gwTicks0,
      rssAnonMb: gwRss.anonMb,
      rssFileMb: gwRss.fileMb,
      rssShmemMb: gwRss.shmemMb,
      bareRssMb: bareRss.rssMb,
      bareCpuPercent: pct(bareTicks1 - bareTicks0),
      timers: [
        "node:http Server connectionsCheckingInterval: every 2000 ms (buildApp sets http.connectionsCheckingInterval = 2000 so requestTimeout/headersTimeout are enforced; Node's default is 30000 ms)",
        'per-connection keep-alive timers only while a client holds a connection open (none when idle)',
        'device probes: no timer; one round at start, then refreshed only when a request reads facts older than 30 s',
        'webhook outbox: no timer without SMS_GATEWAY_WEBHOOK_URLS or pending deliveries (a timer exists only while deliveries wait)',
        'sent-box confirmation: no timer in simulated mode; in real mode only while a handed-off message awaits confirmation (checks at 5/15/30/60/90/120 s)',
        'inbox watcher: none without webhook targets (with targets it polls every SMS_GATEWAY_INBOX_POLL_SECONDS, default 15 s)',
        'rate limiter: no timer (token buckets refill and are pruned lazily on requests)',
      ],
    };

    log(`health: ${CALLERS * PER_CALLER_HZ} req/s open loop over ${CALLERS} callers for ${LOAD_MS / 1000} s (after a ${WARMUP_MS / 1000} s warm-up), gateway then bare ...`);
    const healthSpec = () => ({ kind: 'health', path: '/health', expect: 200 });
    const gwHealth = await measureLoad(gw, PER_CALLER_HZ, healthSpec, tickHz);
    const bareHealth = await measureLoad(bare, PER_CALLER_HZ, healthSpec, tickHz);
    health = {
      gatewayCpuMsPerKReq: gwHealth.cpuMsPerKReq,
      bareCpuMsPerKReq: bareHealth.cpuMsPerKReq,
      ratio: round(gwHealth.cpuMsPerKReq / bareHealth.cpuMsPerKReq),
      p99Ms: gwHealth.p99Ms,
      p50Ms: gwHealth.p50Ms,
      maxMs: gwHealth.maxMs,
      bareP50Ms: bareHealth.p50Ms,
      bareP99Ms: bareHealth.p99Ms,
      offeredRps: CALLERS * PER_CALLER_HZ,
      requests: gwHealth.requests,
      failed: gwHealth.failed,
      non200: gwHealth.unexpected,
      bareRequests: bareHealth.requests,
      bareFailed: bareHealth.failed,
      bareNon200: bareHealth.unexpected,
      sameBody: JSON.stringify(JSON.parse(gwBody)) === JSON.stringify(JSON.parse(bareBody)),
      schedulerMaxLateMs: Math.max(gwHealth.maxLateMs, bareHealth.maxLateMs),
      errors: [...gwHealth.errors, ...bareHealth.errors],
    };
    await stopProc(bare);

    log(`history: GET /api/messages?limit=20 (authenticated, ${HISTORY_ROWS} messages), same load ...`);
    const gwHistory = await measureLoad(
      gw,
      PER_CALLER_HZ,
      () => ({ kind: 'history', path: '/api/messages?limit=20', headers: { authorization: `Bearer ${key}` }, expect: 200 }),
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

  // 3. Sends (real mode, instant fake termux-sms-send), then the soak on the same gateway.
  const fake = makeFake();
  const fakeMs = fakeExecMs(fake);
  const realHome = newHome('real');
  const realKey = apiKey(realHome);
  const auth = { authorization: `Bearer ${realKey}` };
  log(`send: ${SEND_SAMPLES} one-segment sends ${SEND_SPACING_MS} ms apart (real mode, instant fake termux-sms-send) ...`);
  const real = startGateway(realHome, fake);
  let send, soak;
  try {
    await waitForHealth(real);
    const sendCaller = makeCallers(['127.0.0.70']);
    const sendSpec = (_caller: Caller, n: number): Omit<RequestSpec, 'caller'> => {
      return {
        kind: 'send',
        path: '/api/sms/send',
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ to: '+1 555 555 0100', message: `bench message ${n}: the pump in the cellar is running.` }),
        expect: 200,
      };
    };
    const sends = await runOpenLoop(real.port, steady(sendCaller, 1000 / SEND_SPACING_MS, SEND_SAMPLES * SEND_SPACING_MS, sendSpec));
    const sendSummary = summarize(sends.samples);
    const accepted = sends.samples.filter((s) => s.status === 200).map((s) => s.ms);
    send = {
      p50Ms: round(percentile(accepted, 50)),
      p99Ms: round(percentile(accepted, 99)),
      samples: accepted.length,
      failed: sendSummary.failed,
      non200: sendSummary.unexpected,
      handoffs: fake.calls(),
      handoffsAfterSoak: 0,
      fakeExecMs: fakeMs,
      errors: sendSummary.errors,
    };

    log(`soak: ${SOAK_WARMUP_MS / 1000} s warm-up + ${SOAK_MS / 1000} s mixed load (health, history, 1 send/s, 404s, 401s) ...`);
    const total = SOAK_WARMUP_MS + SOAK_MS;
    const healthCallers = makeCallers(loopback(10, 25));
    const historyCallers = makeCallers(loopback(35, 20));
    const notFoundCaller = makeCallers(['127.0.0.60']);
    const unauthCaller = makeCallers(['127.0.0.61']);
    const rss: { atS: number; rssMb: number }[] = [];
    const sampleRss = (atMs: number) => () => rss.push({ atS: atMs / 1000, rssMb: rssOf(real.pid).rssMb });
    const events: Event[] = [
      ...steady(healthCallers, 8, total, () => ({ kind: 'health', path: '/health', expect: 200 })),
      ...steady(historyCallers, 5, total, () => ({ kind: 'history', path: '/api/messages?limit=20', headers: auth, expect: 200 })),
      ...steady(notFoundCaller, 2, total, (_c, n) =>
        n % 2 === 0
          ? { kind: 'not-found', path: '/api/messages/msg_00000000000000000000000000', headers: auth, expect: 404 }
          : { kind: 'not-found', path: '/api/no-such-route', headers: auth, expect: 404 },
      ),
      ...steady(unauthCaller, 2, total, () => ({ kind: 'unauthorized', path: '/api/messages?limit=20', headers: { authorization: 'Bearer wrong-key' }, expect: 401 })),
      ...steady(sendCaller, 1000 / SEND_SPACING_MS, total, sendSpec, SEND_SPACING_MS),
    ];
    for (let at = SOAK_WARMUP_MS; at < total; at += 5000) events.push({ at, mark: sampleRss(at) });
    const run = await runOpenLoop(real.port, events);
    rss.push({ atS: total / 1000, rssMb: rssOf(real.pid).rssMb });
    for (const c of [...healthCallers, ...historyCallers, ...notFoundCaller, ...unauthCaller, ...sendCaller]) c.agent.destroy();
    const s = summarize(run.samples);
    const byKind: Record<string, number> = {};
    for (const sample of run.samples) byKind[sample.kind] = (byKind[sample.kind] ?? 0) + 1;
    const start = rss[0]!.rssMb;
    const end = rss[rss.length - 1]!.rssMb;
    soak = {
      rssGrowthPercent: round(((end - start) / start) * 100),
      rssStartMb: start,
      rssEndMb: end,
      rssSamplesMb: rss,
      requests: s.requests,
      byKind,
      failed: s.failed,
      unexpectedStatus: s.unexpected,
      p99Ms: s.p99Ms,
      errors: s.errors,
    };
    send.handoffsAfterSoak = fake.calls();
  } finally {
    await stopProc(real);
  }
  notes.push(`The fake termux-sms-send (sh + mkdir + date + cat, run directly) takes ${fakeMs} ms by itself: that part of the send latency is the fake, not the gateway.`);

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
    runSeconds,
    notes,
  };
  writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);

  // The table.
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const rows: Row[] = [
    ['startup to first 200 /health, ms (median of 5)', `${startup.gatewayMs}`, `${startup.bareMs}`, '', ''],
    ['  warm start (same home, compile cache), ms', `${startup.gatewayWarmMs}`, `${startup.bareMs}`, '', ''],
    ['  startup ratio', `${startup.ratio}`, '1', `<= ${TARGETS.startupRatio}`, met(startup.ratio <= TARGETS.startupRatio)],
    ['  startup CPU, ms (median)', `${startup.gatewayCpuMs}`, `${startup.bareCpuMs}`, '', ''],
    ['idle RSS after 10 s, MB', `${idle.rssMb}`, `${idle.bareRssMb}`, `<= ${TARGETS.idleRssMb}`, met(idle.rssMb <= TARGETS.idleRssMb)],
    ['  RSS anon / file, MB', `${idle.rssAnonMb} / ${idle.rssFileMb}`, '', '', ''],
    ['idle CPU over 20 s, %', `${idle.cpuPercent}`, `${idle.bareCpuPercent}`, `< ${TARGETS.idleCpuPercent}`, met(idle.cpuPercent < TARGETS.idleCpuPercent)],
    ['/health CPU per 1000 req, ms', `${health.gatewayCpuMsPerKReq}`, `${health.bareCpuMsPerKReq}`, '', ''],
    ['  /health CPU ratio', `${health.ratio}`, '1', `<= ${TARGETS.healthRatio}`, met(health.ratio <= TARGETS.healthRatio)],
    ['  /health p50 / p99, ms', `${health.p50Ms} / ${health.p99Ms}`, `${health.bareP50Ms} / ${health.bareP99Ms}`, '', ''],
    ['  /health requests / failed / non-200', `${health.requests} / ${health.failed} / ${health.non200}`, `${health.bareRequests} / ${health.bareFailed} / ${health.bareNon200}`, '0 failed', met(health.failed + health.non200 + health.bareFailed + health.bareNon200 === 0)],
    ['history CPU per 1000 req, ms', `${history.cpuMsPerKReq}`, '', '', ''],
    ['  history p50 / p99, ms', `${history.p50Ms} / ${history.p99Ms}`, '', '', ''],
    ['  history requests / failed / non-200', `${history.requests} / ${history.failed} / ${history.non200}`, '', '0 failed', met(history.failed + history.non200 === 0)],
    ['send p50 / p99, ms', `${send.p50Ms} / ${send.p99Ms}`, `fake alone ${send.fakeExecMs}`, `p50 <= ${TARGETS.sendP50Ms}`, met(send.p50Ms <= TARGETS.sendP50Ms)],
    ['  sends 200 / failed / other, hand-offs', `${send.samples} / ${send.failed} / ${send.non200}, ${send.handoffs}`, '', '', ''],
    ['soak RSS growth over 60 s, %', `${soak.rssGrowthPercent}`, `${soak.rssStartMb} -> ${soak.rssEndMb} MB`, `<= ${TARGETS.soakGrowthPercent}`, met(soak.rssGrowthPercent <= TARGETS.soakGrowthPercent)],
    ['  soak requests / failed / unexpected', `${soak.requests} / ${soak.failed} / ${soak.unexpectedStatus}`, '', '0 failed', met(soak.failed + soak.unexpectedStatus === 0)],
  ];
  const header: Row = ['metric', 'gateway', 'bare / floor', 'target', 'result'];
  const widths = header.map((_, i) => Math.max(...[header, ...rows].map((r) => r[i]!.length)));
  const line = (r: Row) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd();
  log('');
  log(line(header));
  log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) log(line(r));
  log('');
  for (const n of notes) log(`note: ${n}`);
  const errors = [...health.errors, ...history.errors, ...send.errors, ...soak.errors];
  for (const e of errors) log(`error seen: ${e}`);
  log(`wrote ${RESULTS} (run time ${runSeconds} s)`);
  return 0;
}

try {
  const code = await main();
  releaseLock();
  process.exitCode = code;
} catch (err) {
  process.stderr.write(`bench failed: ${(err as Error).stack ?? String(err)}\n`);
  await Promise.all([...children].map((c) => stopChild(c, 2000)));
  process.exitCode = 1;
}
