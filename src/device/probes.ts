// Device probes: what the phone can tell about itself, through the one termux runner.
// All probes run in parallel, each bounded by its own timeout; results are cached and
// refreshed in the background when stale (stale-while-revalidate), so a request never
// waits on a hang after the first round. A value the phone cannot tell is null, never
// invented.
import type { Clock } from '../core/clock.js';
import { runCommand, type RunFailure, type RunOptions, type RunResult } from './termux.js';
import {
  listsPackage,
  parseBattery,
  parseProps,
  parseTelephony,
  parseWifi,
  PM_PATH,
  termuxApiInstalled,
  type ApiApp,
  type Battery,
  type DeviceProps,
  type Telephony,
  type Wifi,
} from './probe-parsers.js';

export interface ProbeValues {
  telephony: Telephony;
  battery: Battery;
  wifi: Wifi;
  props: DeviceProps;
  apiApp: ApiApp;
}
export type ProbeName = keyof ProbeValues;
export const PROBE_NAMES: ProbeName[] = ['telephony', 'battery', 'wifi', 'props', 'apiApp'];

export interface ProbeState<T> {
  /** null until a probe answered, or when the last one failed and nothing was known before. */
  value: T | null;
  /** Result of the last attempt: 'ok', a RunFailure, or 'never' before the first. */
  last: 'ok' | RunFailure | 'never';
  detail: string | null;
  /** Wall-clock ms of the last attempt. */
  checkedAt: number | null;
  ms: number | null;
}

export type Snapshot = { [K in ProbeName]: ProbeState<ProbeValues[K]> };

// --- the probe set --------------------------------------------------------------------

type Runner = (command: string, args: string[], opts: RunOptions) => Promise<RunResult>;

interface ProbeSpec<T> {
  command: string;
  args: string[];
  expect: 'json' | 'text';
  parse: (r: { stdout: string; json: unknown }) => T;
}

const SPECS: { [K in ProbeName]: ProbeSpec<ProbeValues[K]> } = {
  telephony: { command: 'termux-telephony-deviceinfo', args: [], expect: 'json', parse: (r) => parseTelephony(r.json) },
  battery: { command: 'termux-battery-status', args: [], expect: 'json', parse: (r) => parseBattery(r.json) },
  wifi: { command: 'termux-wifi-connectioninfo', args: [], expect: 'json', parse: (r) => parseWifi(r.json) },
  props: { command: 'getprop', args: [], expect: 'text', parse: (r) => parseProps(r.stdout) },
  apiApp: { ...PM_PATH, expect: 'text', parse: (r) => ({ installed: listsPackage(r.stdout) }) },
};

/** One probe's answer into its state: the value read from it, or the failure (the last known value kept). */
function recordAnswer<K extends ProbeName>(name: K, s: ProbeState<ProbeValues[K]>, r: RunResult, at: number): void {
  const spec = SPECS[name];
  s.checkedAt = at;
  s.ms = r.ms;
  if (r.ok) {
    try {
      s.value = spec.parse(r);
      s.last = 'ok';
      s.detail = null;
    } catch (err) {
      s.last = 'api_error';
      s.detail = `could not read the answer: ${(err as Error).message}`;
    }
  } else if (name === 'apiApp' && termuxApiInstalled(r) === false) {
    s.value = { installed: false } as ProbeValues[K];
    s.last = 'ok';
    s.detail = null;
  } else {
    // Keep the last known value: a stale fact beats none, and `last` says it failed.
    s.last = r.failure;
    s.detail = r.detail;
  }
}

export interface ProbeOptions {
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /** Each probe's own timeout. */
  timeoutMs?: number;
  /** How old a result may be before a request triggers a background refresh. */
  ttlMs?: number;
  run?: Runner;
}

/** How long one probe may take before it is cut off. */
export const PROBE_TIMEOUT_MS = 3000;
/** How long a probed fact is fresh; older ones are read again in the background. */
export const PROBE_TTL_MS = 30_000;

export function createProbes(opts: ProbeOptions) {
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const ttlMs = opts.ttlMs ?? PROBE_TTL_MS;
  const run = opts.run ?? runCommand;
  const state = Object.fromEntries(PROBE_NAMES.map((n) => [n, { value: null, last: 'never', detail: null, checkedAt: null, ms: null }])) as unknown as Snapshot;
  let round: Promise<void> | undefined;
  let lastRoundAt: number | null = null;

  const probeOne = async <K extends ProbeName>(name: K) => {
    const spec = SPECS[name];
    const r = await run(spec.command, spec.args, {
      timeoutMs,
      expect: spec.expect,
      maxOutputBytes: 256 * 1024,
      ...(opts.env ? { env: opts.env } : {}),
    });
    recordAnswer(name, state[name] as ProbeState<ProbeValues[K]>, r, opts.clock.now());
  };

  const refresh = (): Promise<void> => {
    if (!round) {
      lastRoundAt = opts.clock.monotonicMs();
      round = Promise.all(PROBE_NAMES.map((n) => probeOne(n))).then(() => {
        round = undefined;
      });
    }
    return round;
  };

  return {
    /**
     * The first round, `afterMs` from now (after the port is bound: the first answers never
     * wait for five spawns), unless a request has started one by then.
     */
    start(afterMs = 0) {
      if (afterMs <= 0) void refresh();
      else opts.clock.setTimer(() => lastRoundAt === null && void refresh(), afterMs);
    },
    /** The cached facts as they are; starts nothing (the time zone's lookup, per message). */
    known(): Snapshot {
      return state;
    },
    refresh,
    /** The cached facts; never waits. Starts a background refresh when they are stale. */
    peek(): Snapshot {
      if (lastRoundAt === null || opts.clock.monotonicMs() - lastRoundAt > ttlMs) void refresh();
      return state;
    },
    /**
     * Like peek(), but a call before the first round has ended waits for all of it (bounded
     * by the timeout): a probe that answers later than the others is not reported as null.
     */
    async get(): Promise<Snapshot> {
      if (lastRoundAt === null) await refresh();
      else if (round && PROBE_NAMES.some((n) => state[n].last === 'never')) await round;
      return this.peek();
    },
  };
}

export type Probes = ReturnType<typeof createProbes>;
