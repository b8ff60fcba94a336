// Shared test helpers: temp homes, a fake clock, an app built on the real hooks,
// fake termux-* executables on PATH, and the real gateway process for end-to-end tests.
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { PassThrough } from 'node:stream';
import type { AppDeps } from '../src/server/app.js';
import { releasePortLock, takePortLock } from '../scripts/port-lock.js';
import { main } from '../src/cli/router.js';
import { createApiKeyFile } from '../src/core/keys.js';
import { PORT } from '../src/core/constants.js';
import type { Clock } from '../src/core/clock.js';
import type { RuntimeInfo } from '../src/core/runtime.js';
import { openDatabase } from '../src/store/database.js';
import { composeGateway, type ComposedGateway, type Ports } from '../src/server/compose.js';
import type { Config } from '../src/core/config.js';
import type { MqttSettings } from '../src/core/mqtt-settings.js';
import { createCalendar } from '../src/core/time-zone.js';
import type { QuietHours } from '../src/core/quiet-hours.js';
import type { Handoff, HandoffResult, Sender } from '../src/sms/senders.js';
import { createProbes } from '../src/device/probes.js';
import { checkAnswersAgainstOpenApi, checkerFor } from './fixtures/openapi-contract.js';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const FAKE_TERMUX = join(ROOT, 'test/fixtures/bin/fake-termux');
export const CLI = join(ROOT, 'bin/sms-gateway');

export function tempDir(t: Test, prefix = 'smsgw-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface FakeClock extends Clock {
  /** Moves time on, firing each timer due on the way at its own time, in order. */
  advance(ms: number): void;
  /** As advance(), letting promises (and the loops they drive) settle after each timer. */
  tick(ms: number): Promise<void>;
  /** Fires every timer, moving time to each, until none is left (at most `limit`). */
  runAll(limit?: number): Promise<void>;
  /** Sets the wall clock only (a phone's clock change); timers follow monotonic time. */
  set(wallMs: number): void;
  /** Timers set and not yet fired or cancelled. */
  pendingTimers(): number;
}

/** Lets promise chains and immediate callbacks settle (a few event-loop turns). */
export async function letSettle(turns = 5): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((r) => setImmediate(r));
}

/** A clock that only moves when told; wall and monotonic time move together unless set(). */
export function fakeClock(start = Date.UTC(2026, 10, 21, 12, 0, 0)): FakeClock {
  let wall = start;
  let mono = 1_000_000;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const moveTo = (at: number) => {
    wall += at - mono;
    mono = at;
  };
  let fired = 0; // in the current advance/tick: a loop re-arming at 0 ms must fail, not hang
  /** The earliest timer due by `until` (ties: the one set first), taken off the list. */
  const nextDue = (until: number) => {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const e of timers) if (e[1].at <= until && (!best || e[1].at < best[1].at)) best = e;
    if (best) timers.delete(best[0]);
    if (best && ++fired > 10_000) throw new Error('fake clock: over 10 000 timers fired in one move (a timer loop?)');
    return best?.[1];
  };
  const clock: FakeClock = {
    now: () => wall,
    monotonicMs: () => mono,
    setTimer(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: mono + Math.max(0, ms), fn });
      return { cancel: () => void timers.delete(id) };
    },
    advance(ms) {
      fired = 0;
      const until = mono + ms;
      for (let t = nextDue(until); t; t = nextDue(until)) {
        moveTo(t.at);
        t.fn();
      }
      moveTo(until);
    },
    async tick(ms) {
      fired = 0;
      const until = mono + ms;
      await letSettle();
      for (let t = nextDue(until); t; t = nextDue(until)) {
        moveTo(t.at);
        t.fn();
        await letSettle();
      }
      moveTo(until);
      await letSettle();
    },
    async runAll(limit = 1000) {
      await letSettle();
      for (let i = 0; i < limit && timers.size > 0; i++) {
        const t = nextDue(Infinity)!;
        moveTo(Math.max(mono, t.at));
        t.fn();
        await letSettle();
      }
    },
    set(wallMs) {
      wall = wallMs;
    },
    pendingTimers: () => timers.size,
  };
  return clock;
}

export const testRuntime = (over: Partial<RuntimeInfo> = {}): RuntimeInfo => ({
  version: '0.1.0',
  mode: 'simulated',
  simulation: 'success',
  smsEnabled: true,
  startedAt: Date.UTC(2026, 10, 21, 12, 0, 0),
  ...over,
});

export interface TestAppOptions {
  runtime?: Partial<RuntimeInfo>;
  sender?: Sender;
  simCount?: number;
  defaultSim?: number;
  timeZone?: string;
  clock?: FakeClock;
  home?: string;
  logger?: AppDeps['logger'];
  /** Environment the device probes run in (fake termux-* on PATH); default: none found. */
  probeEnv?: NodeJS.ProcessEnv;
  probeTimeoutMs?: number;
  phoneNumber?: string;
  webhookUrls?: string[];
  webhookSecret?: string;
  webhookTimeoutMs?: number;
  random?: () => number;
  confirmSends?: boolean;
  deviceEnv?: NodeJS.ProcessEnv;
  queueRate?: number;
  quietHours?: QuietHours;
  /** Ends an interrupted hand-off's process group at restore (default: nothing is signalled). */
  endLeftover?: Ports['endLeftover'];
  /** SMS_GATEWAY_INBOX (the inbox watcher also runs with any webhook target). */
  inbox?: boolean;
  inboxList?: Ports['inboxList'];
  /** Builds the inbox watcher (with webhook targets or MQTT); tests poll it by hand. */
  inboxPollMs?: number;
  /** The MQTT bridge (built, not started: call gateway.mqtt.start()). */
  mqtt?: MqttOptions;
}

export interface MqttOptions {
  settings: MqttSettings;
  gatewayId: string;
  /** A short reconnect delay, a state interval of their own. */
  backoffMs?: (attempt: number) => number;
  stateIntervalMs?: number;
}

/** The parts tests reach, by the names they had before the parts composed themselves. */
function servicesOf(gateway: ComposedGateway) {
  const { sending, webhooks, inbox } = gateway;
  return {
    ...sending,
    outbox: webhooks.outbox,
    delivery: webhooks.delivery,
    targets: webhooks.targets,
    tester: webhooks.tester,
    inbox: inbox.watcher,
    inboxStore: inbox.store,
    inboxEnabled: inbox.enabled,
    switchInbox: inbox.switchOver,
    startInbox: inbox.start,
    stopInbox: inbox.stop,
    /** Stops the background work; the database stays open. */
    stop: (graceMs?: number) => gateway.stopBackground(graceMs),
  };
}

/** A sender that records every hand-off and answers as told (ok by default). */
export function recordingSender(answer: () => HandoffResult | Promise<HandoffResult> = () => ({ ok: true })) {
  const handoffs: Handoff[] = [];
  const sender: Sender = {
    async send(h) {
      handoffs.push(h);
      return answer();
    },
  };
  return { sender, handoffs };
}

/** The configuration a test's gateway is composed from (what loadConfig would give). */
function testConfig(home: string, runtime: RuntimeInfo, opts: TestAppOptions): Config {
  return {
    home,
    mode: runtime.mode,
    simulation: runtime.simulation === 'none' ? 'success' : runtime.simulation,
    smsEnabled: runtime.smsEnabled,
    defaultSim: opts.defaultSim ?? 1,
    phoneNumber: opts.phoneNumber,
    sendTimeoutMs: 30_000,
    webhookUrls: opts.webhookUrls ?? [],
    inbox: opts.inbox ?? false,
    inboxPollMs: opts.inboxPollMs ?? 15_000,
    queueRate: opts.queueRate ?? 30,
    quietHours: opts.quietHours,
    logLevel: 'silent',
    mqtt: opts.mqtt?.settings,
  };
}

/** The app on the real hooks, with a temp home and database, a fake clock and a fake sender. */
export async function testApp(t: Test, opts: TestAppOptions = {}) {
  const home = opts.home ?? tempDir(t);
  const keyFile = createApiKeyFile(home);
  const clock = opts.clock ?? fakeClock();
  const runtime = testRuntime(opts.runtime);
  const recorder = recordingSender();
  const db = openDatabase(join(home, 'gateway.db'));
  const calendar = createCalendar(opts.timeZone ?? 'UTC');
  const probes = createProbes({ clock, env: opts.probeEnv ?? { PATH: '/nonexistent' }, timeoutMs: opts.probeTimeoutMs ?? 1000 });
  const config = testConfig(home, runtime, opts);
  const gateway = await composeGateway({
    config,
    db,
    clock,
    runtime,
    probes,
    apiKey: keyFile,
    logger: opts.logger,
    env: opts.deviceEnv ?? { PATH: '/nonexistent' },
    webhookSecret: () => opts.webhookSecret ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    bootId: null,
    ports: {
      sender: opts.sender ?? recorder.sender,
      calendar: () => calendar,
      simCount: () => opts.simCount ?? 2,
      interfaces: () => ({}),
      confirmSends: opts.confirmSends ?? false,
      inboxList: opts.inboxList,
      endLeftover: opts.endLeftover ?? (() => 'unknown'),
      ...(opts.mqtt ? { mqttGatewayId: () => opts.mqtt!.gatewayId } : {}),
      timings: {
        ...(opts.webhookTimeoutMs ? { webhookTimeoutMs: opts.webhookTimeoutMs } : {}),
        ...(opts.random ? { random: opts.random } : {}),
        ...(opts.mqtt?.backoffMs ? { mqttBackoffMs: opts.mqtt.backoffMs } : {}),
        ...(opts.mqtt?.stateIntervalMs ? { mqttStateIntervalMs: opts.mqtt.stateIntervalMs } : {}),
      },
    },
  });
  // What a start does before the first request (steps 1 to 3); the background work
  // (step 4) is left to the tests, which drive deliveries and confirmations by hand.
  gateway.restore();
  const { app } = gateway;
  const services = servicesOf(gateway);
  checkAnswersAgainstOpenApi(app); // every answer a test gets must be one /openapi.json declares
  t.teardown(async () => {
    await gateway.mqtt?.stop();
    await app.close();
    // A test's hand-off that never answers holds nothing up: the 1 s grace passes at once.
    const stopping = gateway.stopBackground(1000);
    if ('tick' in clock) await (clock as FakeClock).tick(1000);
    await stopping;
    db.close();
  });
  const key = keyFile.current();
  const auth = { authorization: `Bearer ${key}` };
  /** POST /api/sms/send with the key from a local caller; advances the clock past the spacing first. */
  const send = (body: unknown, headers: Record<string, string> = {}, caller = '192.168.1.20') => {
    clock.advance(1000);
    return app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: caller,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  };
  const get = (url: string, caller = '192.168.1.21') => app.inject({ url, remoteAddress: caller, headers: auth });
  /** POST /api/messages (the queue) with the key from a local caller; the clock does not move. */
  const queue = (body: unknown, headers: Record<string, string> = {}, caller = '192.168.1.22') =>
    app.inject({
      method: 'POST',
      url: '/api/messages',
      remoteAddress: caller,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const cancel = (id: string, caller = '192.168.1.22') =>
    app.inject({ method: 'DELETE', url: `/api/messages/${id}`, remoteAddress: caller, headers: auth });
  return { app, gateway, home, keyFile, key, auth, clock, services, db, probes, handoffs: recorder.handoffs, send, get, queue, cancel };
}

/** Fake termux-* executables in a fresh bin dir; control files in a fresh state dir. */
export function fakeTermux(t: Test, names: string[]) {
  const bin = tempDir(t, 'smsgw-bin-');
  const state = tempDir(t, 'smsgw-fake-');
  for (const name of names) symlinkSync(FAKE_TERMUX, join(bin, name));
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_TERMUX_DIR: state };
  return {
    bin,
    state,
    env,
    mode(name: string, mode: string) {
      writeFileSync(join(state, `${name}.mode`), mode);
    },
    output(name: string, text: string) {
      writeFileSync(join(state, `${name}.out`), text);
    },
    /** When each call started (ms since the epoch, from the call file's nanosecond name), oldest first. */
    callTimes(name: string): number[] {
      const dir = join(state, `${name}.calls`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.argv'))
        .map((f) => Number(BigInt(f.split('-')[0]!) / 1_000_000n))
        .sort((a, b) => a - b);
    },
    calls(name: string): { argv: string[]; stdin: Buffer; grandchild?: number }[] {
      const dir = join(state, `${name}.calls`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.argv'))
        .sort()
        .map((f) => {
          const base = join(dir, f.slice(0, -'.argv'.length));
          const argv = readFileSync(`${base}.argv`, 'utf8').split('\0').slice(0, -1);
          const stdin = existsSync(`${base}.stdin`) ? readFileSync(`${base}.stdin`) : Buffer.alloc(0);
          const gc = existsSync(`${base}.grandchild`) ? Number(readFileSync(`${base}.grandchild`, 'utf8')) : undefined;
          return gc === undefined ? { argv, stdin } : { argv, stdin, grandchild: gc };
        });
    },
  };
}

/**
 * Polls fn (intervalMs apart) until it gives a value other than undefined and returns it;
 * the deadline only stops a broken run. A gateway answers about 10 requests a second per
 * caller: poll it at 100 ms or slower.
 */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined> | T | undefined, ms = 30_000, intervalMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(intervalMs);
  }
}

export { isAlive } from '../scripts/port-lock.js';

/** Holds the machine-wide port-8080 lock for the rest of the test (see scripts/port-lock.ts). */
export async function holdPort8080(t: Test): Promise<void> {
  await takePortLock();
  t.teardown(releasePortLock);
}

export interface RunningGateway {
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `sms-gateway start` (the built CLI) and waits until /health answers. */
export async function startGateway(t: Test, env: NodeJS.ProcessEnv, caller = '127.0.0.1'): Promise<RunningGateway> {
  const proc = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  t.teardown(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await exited;
    }
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`gateway exited early (${proc.exitCode}): ${out}`);
    try {
      const res = await httpGet('/health', {}, caller);
      if (res.status === 200) break;
    } catch (err) {
      if ((err as Error).message.startsWith('contract:')) throw err; // listening, answering wrong
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gateway did not answer /health: ${out}`);
    await sleep(50);
  }
  return { proc, output: () => out, exited };
}

type HttpAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
let e2eContract: ReturnType<typeof checkerFor> | undefined;

/**
 * A plain HTTP request to the local gateway from a chosen loopback source address; the
 * answer must be one /openapi.json declares (fetched once, with the first key seen).
 */
export async function httpGet(path: string, headers: Record<string, string> = {}, caller = '127.0.0.1', method = 'GET', body?: string): Promise<HttpAnswer> {
  const res = await plainHttp(path, headers, caller, method, body);
  if (!e2eContract && headers.authorization && res.status !== 401) {
    const doc = await plainHttp('/openapi.json', { authorization: headers.authorization }, '127.0.0.254');
    if (doc.status === 200) e2eContract = checkerFor(JSON.parse(doc.body));
  }
  const problem = e2eContract?.check(method, path, { statusCode: res.status, contentType: String(res.headers['content-type'] ?? ''), body: res.body });
  if (problem) throw new Error(`contract: ${problem}`);
  return res;
}

async function plainHttp(path: string, headers: Record<string, string>, caller: string, method = 'GET', body?: string): Promise<HttpAnswer> {
  const http = await import('node:http');
  return new Promise((res, rej) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path, method, headers, localAddress: caller, agent: false },
      (r) => {
        let data = '';
        r.on('data', (d: Buffer) => (data += d.toString()));
        r.on('end', () => res({ status: r.statusCode ?? 0, headers: r.headers, body: data }));
      },
    );
    req.on('error', rej);
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await main(argv, { stdout, stderr, env });
  return { code, out, err };
}

/** A small seeded PRNG, so a failing random run can be repeated (print the seed). */
export function prng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let x = Math.imul(s ^ (s >>> 15), 1 | s);
    x ^= x + Math.imul(x ^ (x >>> 7), 61 | x);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * V8's code cache of `source`, made by this Node started without flags. V8 rejects a cache
 * made under flags that change how code is compiled: a process that accepts it runs under
 * the same compile-relevant flags as a plain Node.
 */
export function plainCodeCache(source: string): Buffer {
  const r = spawnSync(process.execPath, ['-e', `process.stdout.write(new (require('node:vm').Script)(${JSON.stringify(source)}).createCachedData().toString('base64'))`], { encoding: 'utf8' });
  if (r.status !== 0 || !r.stdout) throw new Error(`no code cache made: ${r.stderr}`);
  return Buffer.from(r.stdout, 'base64');
}
