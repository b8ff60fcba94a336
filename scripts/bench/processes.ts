// The processes under test and what must be undone: the gateway and the bare server are
// started with output to a file, stopped with SIGTERM (SIGKILL after a grace period),
// and everything (children, temp files, the port-8080 lock) is cleaned up at the end,
// on failure and on SIGINT.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { delimiter, dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { VERSION } from '../../src/core/package-root.js';
import { PORT_LOCK, releasePortLock, takePortLock } from '../port-lock.js';
import { cpuTicks, log, median, round } from './measure.js';
import { BARE_PORT, BARE_SERVER, CLI, FAKE_TERMUX, GATEWAY_PORT } from './settings.js';

/** The run's temp directory (homes, logs, the fake), set by the entry point. */
export const run: { workDir: string | undefined } = { workDir: undefined };
const children = new Set<ChildProcess>();
let lockHeld = false;

export function releaseLock(): void {
  if (!lockHeld) return;
  releasePortLock();
  lockHeld = false;
}

/** Last resort (process exit): kill what is still running, remove temp files and the lock. */
export function cleanupSync(): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
  if (run.workDir) rmSync(run.workDir, { recursive: true, force: true });
  run.workDir = undefined;
  releaseLock();
}

/** Stops every child still running (on failure). */
export const stopAll = () => Promise.all([...children].map((c) => stopChild(c, 2000)));

export function installCleanup(): void {
  process.on('exit', cleanupSync);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      process.stderr.write(`\nbench: ${signal}: stopping everything it started\n`);
      void stopAll().finally(() => {
        cleanupSync();
        process.exit(130);
      });
    });
  }
}

// --- the port-8080 lock (shared with test/helpers/gateway-process.ts holdPort8080) -------

export async function takeLock(): Promise<void> {
  await takePortLock({
    timeoutMs: 10 * 60_000,
    onWait: (owner) =>
      log(`waiting for the port-8080 lock ${PORT_LOCK} (held by pid ${owner}, a test that starts the gateway)...`),
  });
  lockHeld = true;
}

/** Fails if something already answers on the port (a gateway started outside the lock). */
export async function assertPortFree(port: number): Promise<void> {
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

export interface Proc {
  name: string;
  child: ChildProcess;
  pid: number;
  port: number;
  logFile: string;
  spawnedAt: number;
  exited: Promise<void>;
}

/** Starts `command argv` (by default this Node running argv) with output to a log file. */
export function startProc(
  name: string,
  argv: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  command = process.execPath,
): Proc {
  const logFile = join(run.workDir!, `${name}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}.log`);
  const fd = openSync(logFile, 'a');
  const spawnedAt = performance.now();
  // Output goes to a file, so the bench spends no CPU reading the gateway's request log.
  const child = spawn(command, argv, { env, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  if (child.pid === undefined) throw new Error(`could not start ${name}`);
  children.add(child);
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  void exited.then(() => children.delete(child));
  return { name, child, pid: child.pid, port, logFile, spawnedAt, exited };
}

export function logTail(p: Proc): string {
  try {
    return readFileSync(p.logFile, 'utf8').slice(-2000);
  } catch {
    return '';
  }
}

export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((res) => child.once('exit', () => res()));
  child.kill('SIGTERM');
  const done = await Promise.race([exited.then(() => true), sleep(graceMs).then(() => false)]);
  if (!done) {
    child.kill('SIGKILL');
    await exited;
  }
}

export const stopProc = (p: Proc) => stopChild(p.child);
export const started = async (p: Proc) => {
  await waitForHealth(p);
  return p;
};

/** Polls GET /health every 5 ms until 200; returns ms since spawn and CPU ticks used by then. */
export async function waitForHealth(p: Proc, timeoutMs = 30_000): Promise<{ ms: number; ticks: number }> {
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
    if (performance.now() > deadline)
      throw new Error(`${p.name} did not answer /health in ${timeoutMs} ms:\n${logTail(p)}`);
    await sleep(5);
  }
}

export function probeHealth(port: number): Promise<number> {
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

export function getBody(port: number, path: string, key?: string): Promise<string> {
  return new Promise((res, rej) => {
    const headers = key === undefined ? {} : { authorization: `Bearer ${key}` };
    const req = http.request(
      { host: '127.0.0.1', port, path, headers, agent: false, localAddress: '127.0.0.2' },
      (r) => {
        let data = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => (data += d));
        r.on('end', () => res(data));
      },
    );
    req.on('error', rej);
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end();
  });
}

/** PATH without any directory that holds termux-sms-send (so the gateway is simulated). */
export function pathWithoutTermux(): string {
  return (process.env.PATH ?? '')
    .split(delimiter)
    .filter((dir) => dir !== '' && !existsSync(join(dir, 'termux-sms-send')))
    .join(delimiter);
}

export function gatewayEnv(home: string, fake?: { bin: string; state: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.startsWith('SMS_GATEWAY_') && k !== 'LOG_LEVEL') env[k] = v;
  }
  env.SMS_GATEWAY_HOME = home;
  env.PATH = fake ? `${fake.bin}${delimiter}${pathWithoutTermux()}` : pathWithoutTermux();
  if (fake) env.FAKE_TERMUX_DIR = fake.state;
  return env;
}

export function newHome(label: string): string {
  const home = join(run.workDir!, `home-${label}-${Math.random().toString(36).slice(2, 8)}`);
  mkdirSync(home, { mode: 0o700 });
  return home;
}

/**
 * `sms-gateway start` as a user runs it: the launcher itself, whose first line (`env -S node`
 * and the V8 flags) finds this Node first on PATH.
 */
export function startGateway(home: string, fake?: { bin: string; state: string }, extra: NodeJS.ProcessEnv = {}): Proc {
  const env = { ...gatewayEnv(home, fake), ...extra };
  env.PATH = `${dirname(process.execPath)}${delimiter}${env.PATH ?? ''}`;
  return startProc('gateway', ['start'], env, GATEWAY_PORT, CLI);
}
/** The V8 flags of the launcher's first line (`#!/usr/bin/env -S node <flags>`), its one definition. */
export function launcherFlags(): string[] {
  const first = readFileSync(CLI, 'utf8').split('\n', 1)[0] ?? '';
  return first.split(' ').filter((w) => w.startsWith('--'));
}

export const startBare = () =>
  startProc('bare', [BARE_SERVER, String(BARE_PORT), VERSION], { PATH: pathWithoutTermux() }, BARE_PORT);

export function apiKey(home: string): string {
  const r = spawnSync(process.execPath, [CLI, 'key', 'rotate'], {
    env: gatewayEnv(home),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const key = (r.stdout ?? '').trim();
  if (r.status !== 0 || key === '') throw new Error(`sms-gateway key rotate failed (${r.status}): ${r.stderr}`);
  return key;
}

// --- the fake termux-sms-send ------------------------------------------------------------

export function makeFake(label = 'sends'): { bin: string; state: string; calls: () => number } {
  const bin = join(run.workDir!, `fake-bin-${label}`);
  const state = join(run.workDir!, `fake-state-${label}`);
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
export function fakeExecMs(fake: { bin: string }, runs = 10): number {
  const state = join(run.workDir!, 'fake-timing');
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
