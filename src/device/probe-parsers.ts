// What the phone's answers to the probes' commands mean: pure parsers, tolerant of missing or
// oddly typed fields (a value the phone does not tell is null), and the one reading of
// `pm path com.termux.api` (is the Termux:API app installed?).
import type { RunResult } from './termux.js';

export interface Telephony {
  carrier: string | null;
  networkType: string | null;
  simState: string | null;
  simCarrier: string | null;
  /** The SIM's country (ISO 3166 alpha-2, upper case), or null. */
  simCountry: string | null;
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

const countryOf = (v: unknown): string | null => {
  const code = str(v)?.toUpperCase() ?? null;
  return code !== null && /^[A-Z]{2}$/.test(code) ? code : null;
};

export function parseTelephony(json: unknown): Telephony {
  const j = obj(json);
  const count = num(j.phone_count);
  return {
    carrier: str(j.network_operator_name),
    networkType: str(j.network_type),
    simState: str(j.sim_state),
    simCarrier: str(j.sim_operator_name),
    simCountry: countryOf(j.sim_country_iso),
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
  const percentage =
    num(j.percentage) ??
    (level !== null && scale !== null && level >= 0 && scale > 0 ? Math.round((level * 100) / scale) : null);
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

export const listsPackage = (stdout: string) => /^package:/m.test(stdout);

/**
 * The one reading of PM_PATH's answer: "package:/data/app/..." when installed; exit code 1
 * (with no output) when not. Undefined when pm could not tell (not found, a timeout, ...).
 */
export function termuxApiInstalled(r: RunResult): boolean | undefined {
  if (r.ok) return listsPackage(r.stdout);
  if (r.failure === 'api_error' && /exited with code 1\b/.test(r.detail)) return false;
  return undefined;
}
