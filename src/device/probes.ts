// Device probes: what the phone can tell about itself, through the one termux runner.
// Each fact is read only when someone asks for it (diagnostics, host info, /metrics, Home
// Assistant's sensors, the send path's SIM count) and reused while it is fresh: battery and
// Wi-Fi for 5 minutes, telephony (SIM count, SIM state, carrier), getprop and the app's
// presence for 30 (FACT_MAX_AGE_MS). No timer of its own reads them, beyond getprop's one
// read at start-up (the phone's time zone). When a fact is read again, and the one read in
// flight its askers share, is fact-freshness.ts (a failed read: again after a pause;
// invalidate(): at the next ask). Each read is bounded by its own timeout. A failed read
// keeps the last value with its honest readAt, shown only while younger than its max age.
// A value the phone cannot tell is null, never invented.
import type { Clock } from '../core/clock.js';
import { createFactFreshness } from './fact-freshness.js';
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
  /** Wall-clock ms of the last read that answered (the reading `value` is); null before one. */
  readAt: number | null;
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

/**
 * One probe's answer into its state: the value read from it (true), or the failure, the last
 * known value and its readAt kept (false).
 */
function recordAnswer<K extends ProbeName>(name: K, s: ProbeState<ProbeValues[K]>, r: RunResult, at: number): boolean {
  s.checkedAt = at;
  s.ms = r.ms;
  let value: ProbeValues[K];
  if (r.ok) {
    try {
      value = SPECS[name].parse(r);
    } catch (err) {
      s.last = 'api_error';
      s.detail = `could not read the answer: ${(err as Error).message}`;
      return false;
    }
  } else if (name === 'apiApp' && termuxApiInstalled(r) === false) {
    value = { installed: false } as ProbeValues[K];
  } else {
    s.last = r.failure;
    s.detail = r.detail;
    return false;
  }
  s.value = value;
  s.readAt = at;
  s.last = 'ok';
  s.detail = null;
  return true;
}

export interface ProbeOptions {
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /** Each probe's own timeout. */
  timeoutMs?: number;
  /** How long each fact is fresh, where not FACT_MAX_AGE_MS's (tests). */
  maxAgeMs?: Partial<Record<ProbeName, number>>;
  run?: Runner;
}

/** How long one probe may take before it is cut off. */
export const PROBE_TIMEOUT_MS = 3000;
const MINUTE_MS = 60_000;
/** How long a fact read is fresh: an ask within it reads nothing, one after it reads again. */
export const FACT_MAX_AGE_MS: Readonly<Record<ProbeName, number>> = {
  battery: 5 * MINUTE_MS,
  wifi: 5 * MINUTE_MS,
  telephony: 30 * MINUTE_MS,
  props: 30 * MINUTE_MS,
  apiApp: 30 * MINUTE_MS,
};

/** Every fact's state before its first read: nothing known, never tried. */
function emptySnapshot(): Snapshot {
  return Object.fromEntries(
    PROBE_NAMES.map((n) => [n, { value: null, last: 'never', detail: null, checkedAt: null, readAt: null, ms: null }]),
  ) as unknown as Snapshot;
}

/** Runs one fact's command, bounded by the timeout and the output cap. */
function runProbe(run: Runner, name: ProbeName, timeoutMs: number, env: NodeJS.ProcessEnv | undefined) {
  const { command, args, expect } = SPECS[name];
  return run(command, args, { timeoutMs, expect, maxOutputBytes: 256 * 1024, ...(env ? { env } : {}) });
}

/** The onRead listeners, each told after every read; a listener's failure is its own. */
function readListeners() {
  const listeners = new Set<(name: ProbeName) => void>();
  return {
    /** Adds a listener; returns the unsubscribe. */
    add: (listener: (name: ProbeName) => void): (() => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    notify: (name: ProbeName): void => {
      for (const listener of listeners) {
        try {
          listener(name);
        } catch {
          // a listener's failure is its own
        }
      }
    },
  };
}

export function createProbes(opts: ProbeOptions) {
  const { clock } = opts;
  const timeoutMs = opts.timeoutMs ?? PROBE_TIMEOUT_MS;
  const maxAge = { ...FACT_MAX_AGE_MS, ...opts.maxAgeMs };
  const run = opts.run ?? runCommand;
  const state = emptySnapshot();
  const listeners = readListeners();
  const freshness = createFactFreshness(clock, maxAge, listeners.notify);

  /** One read of a fact into its state; true when it answered. */
  const readOne = async <K extends ProbeName>(name: K): Promise<boolean> => {
    const r = await runProbe(run, name, timeoutMs, opts.env);
    return recordAnswer(name, state[name] as ProbeState<ProbeValues[K]>, r, clock.now());
  };

  /** Starts the reads of the facts that are due; ends when each of them that is not fresh has an answer. */
  const ask = (names: readonly ProbeName[]) => Promise.all(names.map((n) => freshness.ask(n, () => readOne(n))));

  /** The facts as they may be shown: a value older than its fact's max age is left out (null), its readAt kept. */
  const shown = (): Snapshot =>
    Object.fromEntries(
      PROBE_NAMES.map((n) => [n, freshness.young(n) ? state[n] : { ...state[n], value: null }]),
    ) as unknown as Snapshot;

  return {
    /**
     * getprop (the phone's time zone, for the daily counters), `afterMs` from now (after the
     * port is bound), unless an ask has read it by then. No Termux:API fact is read at start.
     */
    start(afterMs = 0) {
      const first = () => freshness.started('props') || void freshness.track('props', () => readOne('props'));
      if (afterMs <= 0) first();
      else clock.setTimer(first, afterMs);
    },
    /** The facts as last read, however old; starts nothing (the time zone's lookup, per message). */
    known(): Snapshot {
      return state;
    },
    shown,
    /** Reads the given facts now, fresh or not (joining a read in flight). */
    async refresh(names: readonly ProbeName[] = PROBE_NAMES): Promise<void> {
      await Promise.all(names.map((n) => freshness.track(n, () => readOne(n))));
    },
    /** The facts as last read; never waits. Starts a background read of those given that are due. */
    peek(names: readonly ProbeName[] = PROBE_NAMES): Snapshot {
      void ask(names);
      return state;
    },
    /** Reads the given facts that are due (bounded by the timeout), then the facts as they may be shown. */
    async get(names: readonly ProbeName[] = PROBE_NAMES): Promise<Snapshot> {
      await ask(names);
      return shown();
    },
    /**
     * The next ask reads these facts again, fresh or not (a failed hand-off: the SIM or the network may have changed).
     */
    invalidate(names: readonly ProbeName[]): void {
      for (const n of names) freshness.invalidate(n);
    },
    /**
     * Called after each read, answered or not (Home Assistant's state publishes what changed); returns the unsubscribe.
     */
    onRead(listener: (name: ProbeName) => void): () => void {
      return listeners.add(listener);
    },
  };
}

export type Probes = ReturnType<typeof createProbes>;
