// Device probes: what the phone can tell about itself, through the one termux runner.
// All probes run in parallel, each bounded by its own timeout; results are cached and
// refreshed in the background when stale (stale-while-revalidate), so a request never
// waits on a hang after the first round. A value the phone cannot tell is null, never
// invented.
import type { Clock } from '../core/clock.js';
import { runCommand, type RunFailure, type RunOptions, type RunResult } from './termux.js';

export interface Telephony {
  carrier: string | null;
  networkType: string | null;
  simState: string | null;
  simCarrier: string | null;
  simCount: number | null;
  roaming: boolean | null;
  dataState: string | null;
  dataEnabled: boolean | null;
}

export interface Battery {
  level: number | null;
  charging: boolean | null;
  status: string | null;
  plugged: string | null;
  temperatureC: number | null;
  health: string | null;
}

export interface Wifi {
  ssid: string | null;
  ip: string | null;
  rssi: number | null;
  linkSpeedMbps: number | null;
  frequencyMhz: number | null;
}

export interface DeviceProps {
  manufacturer: string | null;
  model: string | null;
  androidVersion: string | null;
  sdk: number | null;
  timeZone: string | null;
}

export interface ApiApp {
  installed: boolean;
}

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

// --- parsers: pure, tolerant of missing or oddly typed fields -------------------------

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const bool = (v: unknown): boolean | null => {
  if (typeof v === 'boolean') return v;
  // termux-telephony-deviceinfo prints data_enabled as a string.
  if (v === 'true') return true;
  if (v === 'false') return false;
  return null;
};
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

export function parseTelephony(json: unknown): Telephony {
  const j = obj(json);
  const count = num(j.phone_count);
  return {
    carrier: str(j.network_operator_name),
    networkType: str(j.network_type),
    simState: str(j.sim_state),
    simCarrier: str(j.sim_operator_name),
    simCount: count !== null && Number.isInteger(count) && count >= 1 && count <= 8 ? count : null,
    roaming: bool(j.network_roaming),
    dataState: str(j.data_state),
    dataEnabled: bool(j.data_enabled),
  };
}

export function parseBattery(json: unknown): Battery {
  const j = obj(json);
  const status = str(j.status);
  const plugged = str(j.plugged);
  const charging =
    status === null && plugged === null
      ? null
      : status === 'CHARGING' || status === 'FULL' || (plugged !== null && plugged !== 'UNPLUGGED');
  // Newer Termux:API omits `percentage` where Android cannot tell; level/scale remain.
  const level = num(j.level);
  const scale = num(j.scale);
  const percentage = num(j.percentage) ?? (level !== null && scale !== null && level >= 0 && scale > 0 ? Math.round((level * 100) / scale) : null);
  return {
    level: percentage,
    charging,
    status,
    plugged,
    temperatureC: num(j.temperature) === null ? null : Math.round(num(j.temperature)! * 10) / 10,
    health: str(j.health),
  };
}

export function parseWifi(json: unknown): Wifi {
  const j = obj(json);
  const ip = str(j.ip);
  const ssid = str(j.ssid);
  return {
    // Without location permission Android reports the SSID as "<unknown ssid>".
    ssid: ssid === null || ssid === '<unknown ssid>' ? null : ssid.replace(/^"(.*)"$/, '$1'),
    ip: ip === null || ip === '0.0.0.0' ? null : ip,
    rssi: num(j.rssi),
    linkSpeedMbps: num(j.link_speed_mbps),
    frequencyMhz: num(j.frequency_mhz),
  };
}

/** `getprop` with no arguments prints "[key]: [value]" lines. */
export function parseProps(text: string): DeviceProps {
  const props = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^\[([^\]]+)\]: \[(.*)\]\s*$/.exec(line);
    if (m) props.set(m[1]!, m[2]!);
  }
  const get = (k: string) => str(props.get(k));
  const sdk = Number.parseInt(props.get('ro.build.version.sdk') ?? '', 10);
  return {
    manufacturer: get('ro.product.manufacturer'),
    model: get('ro.product.model'),
    androidVersion: get('ro.build.version.release'),
    sdk: Number.isFinite(sdk) ? sdk : null,
    timeZone: get('persist.sys.timezone'),
  };
}

/** Is the Termux:API app installed? Asked with `pm path com.termux.api`. */
export const PM_PATH = { command: 'pm', args: ['path', 'com.termux.api'] };

const listsPackage = (stdout: string) => /^package:/m.test(stdout);

/**
 * The one reading of PM_PATH's answer: "package:/data/app/..." when installed; exit code 1
 * (with no output) when not. Undefined when pm could not tell (not found, a timeout, ...).
 */
export function termuxApiInstalled(r: RunResult): boolean | undefined {
  if (r.ok) return listsPackage(r.stdout);
  if (r.failure === 'api_error' && /exited with code 1\b/.test(r.detail)) return false;
  return undefined;
}

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

export interface ProbeOptions {
  clock: Clock;
  env?: NodeJS.ProcessEnv;
  /** Each probe's own timeout. */
  timeoutMs?: number;
  /** How old a result may be before a request triggers a background refresh. */
  ttlMs?: number;
  run?: Runner;
}

export function createProbes(opts: ProbeOptions) {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const ttlMs = opts.ttlMs ?? 30_000;
  const run = opts.run ?? runCommand;
  const state = Object.fromEntries(
    PROBE_NAMES.map((n) => [n, { value: null, last: 'never', detail: null, checkedAt: null, ms: null }]),
  ) as unknown as Snapshot;
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
    const s = state[name] as ProbeState<ProbeValues[K]>;
    s.checkedAt = opts.clock.now();
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
