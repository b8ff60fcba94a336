// The load generator: open-loop requests (each fired at its time whether or not earlier
// ones answered) from many loopback callers, each with its own keep-alive agent, and the
// summary of what came back.
import http from 'node:http';
import { cpuTicks, percentile, round } from './measure.js';
import type { Proc } from './processes.js';
import { CALLERS, LOAD_MS, REQUEST_TIMEOUT_MS, WARMUP_MS } from './settings.js';

/** Windows of the paired measurement (measureLoads). */
const ROUNDS = 5;

export interface Caller {
  address: string;
  agent: http.Agent;
}

export function makeCallers(addresses: string[]): Caller[] {
  return addresses.map((address) => ({ address, agent: new http.Agent({ keepAlive: true, localAddress: address }) }));
}

export function closeCallers(callers: Caller[]): void {
  for (const c of callers) c.agent.destroy();
}

export const loopback = (from: number, count: number) => Array.from({ length: count }, (_, i) => `127.0.0.${from + i}`);

export interface RequestSpec {
  kind: string;
  caller: Caller;
  path: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  expect: number;
}

export interface Sample {
  kind: string;
  status: number; // 0: the request failed (connection error, timeout)
  expect: number;
  ms: number;
  error?: string;
}

export interface Event {
  at: number;
  spec?: RequestSpec;
  mark?: () => void;
}

export function fire(port: number, spec: RequestSpec): Promise<Sample> {
  return new Promise((res) => {
    const started = performance.now();
    const done = (status: number, error?: string) =>
      res({
        kind: spec.kind,
        status,
        expect: spec.expect,
        ms: performance.now() - started,
        ...(error ? { error } : {}),
      });
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
export async function runOpenLoop(port: number, events: Event[]): Promise<{ samples: Sample[]; maxLateMs: number }> {
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
export function steady(
  callers: Caller[],
  hz: number,
  durationMs: number,
  spec: (c: Caller, n: number) => Omit<RequestSpec, 'caller'>,
  offsetMs = 0,
): Event[] {
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

export interface LoadResult {
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

export function summarize(samples: Sample[]) {
  const failed = samples.filter((s) => s.status === 0);
  const unexpected = samples.filter((s) => s.status !== 0 && s.status !== s.expect);
  const ms = samples.map((s) => s.ms);
  const errors = [
    ...new Set([
      ...failed.map((s) => `${s.kind}: ${s.error}`),
      ...unexpected.map((s) => `${s.kind}: HTTP ${s.status}`),
    ]),
  ].slice(0, 5);
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

type SpecOf = (c: Caller, n: number) => Omit<RequestSpec, 'caller'>;

/** A warm-up at the same load (not counted), then the measured window with CPU before/after. */
export function measureLoad(p: Proc, hz: number, spec: SpecOf, tickHz: number): Promise<LoadResult> {
  return measureLoads([p], hz, spec, tickHz, 1).then(([r]) => r!);
}

/**
 * The same load on each process in turn, in `rounds` windows of LOAD_MS / rounds each
 * (after a warm-up of each): processes compared this way see the machine in the same state,
 * where two 10 s runs one after the other do not (this machine's speed moves within seconds).
 */
export async function measureLoads(
  procs: Proc[],
  hz: number,
  spec: SpecOf,
  tickHz: number,
  rounds = ROUNDS,
): Promise<LoadResult[]> {
  const callers = makeCallers(loopback(10, CALLERS));
  try {
    const warm: Sample[][] = [];
    for (const p of procs) warm.push((await runOpenLoop(p.port, steady(callers, hz, WARMUP_MS, spec))).samples);
    const runs = procs.map(() => ({ ticks: 0, samples: [] as Sample[], maxLateMs: 0 }));
    for (let r = 0; r < rounds; r++) {
      for (const [i, p] of procs.entries()) {
        const before = cpuTicks(p.pid);
        const run = await runOpenLoop(p.port, steady(callers, hz, LOAD_MS / rounds, spec));
        runs[i]!.ticks += cpuTicks(p.pid) - before;
        runs[i]!.samples.push(...run.samples);
        runs[i]!.maxLateMs = Math.max(runs[i]!.maxLateMs, run.maxLateMs);
      }
    }
    return runs.map((run, i) => {
      const s = summarize(run.samples);
      const w = summarize(warm[i]!);
      return {
        ...s,
        failed: s.failed + w.failed,
        unexpected: s.unexpected + w.unexpected,
        errors: [...new Set([...s.errors, ...w.errors])],
        cpuMsPerKReq: round((run.ticks * 1000) / tickHz / (run.samples.length / 1000)),
        maxLateMs: round(run.maxLateMs),
      };
    });
  } finally {
    closeCallers(callers);
  }
}
