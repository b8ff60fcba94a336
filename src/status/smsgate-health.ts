// SMSGate's health (GET /health with a Basic credential, and the `system:ping` webhook): an
// overall pass, warn or fail and named checks with an observed value, from facts the gateway
// already keeps; it never asks the phone (no Termux:API call). The checks and their rules are
// SMSGate's: `messages:failed` (failed in the last hour: fail when none was sent, else warn),
// `battery:level` (under 10 % fail, under 25 % warn), `battery:charging` (flags: 1 charging,
// 2 on AC, 4 on USB), `connection:status` (1 connected over Wi-Fi or mobile data, 0 not: fail),
// `connection:transport` (flags: 2 mobile data, 4 Wi-Fi; none: fail), `connection:cellular`
// (0 none, 1 unknown, 2-5 for 2G-5G). A fact the phone has not told recently is not guessed:
// its check passes with observedValue -1 and says so, as an unknown fact lowers nothing here.
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Probes, Snapshot } from '../device/probes.js';
import type { RecentOutcomes } from '../store/recent-outcomes.js';

export type SmsgateStatus = 'pass' | 'warn' | 'fail';

export interface SmsgateCheck {
  status: SmsgateStatus;
  observedValue: number;
  observedUnit: string;
  description: string;
}

export interface SmsgateHealth {
  status: SmsgateStatus;
  version: string;
  releaseId: number;
  checks: Record<string, SmsgateCheck>;
}

/** What a check says of a fact the phone has not told lately. */
const UNKNOWN = -1;
const NOT_KNOWN = ' (not known: the phone has not told it lately; this check never asks it, GET /api/diagnostics does)';
const HOUR_MS = 3600_000;

const make = (status: SmsgateStatus, observedValue: number, observedUnit: string, description: string) => ({
  status,
  observedValue,
  observedUnit,
  description,
});

/** SMSGate's release number from ours: 0.5.2 is 502, 1.2.3 is 10203. */
export function releaseIdOf(version: string): number {
  const [major = 0, minor = 0, patch = 0] = version.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  return major * 10_000 + minor * 100 + patch;
}

function messagesFailed(outcomes: RecentOutcomes): SmsgateCheck {
  const { sent, failed } = outcomes;
  const status = failed > 0 && sent === 0 ? 'fail' : failed > 0 ? 'warn' : 'pass';
  return make(status, failed, 'messages', 'Failed messages for last hour');
}

function batteryChecks(snap: Snapshot): Record<string, SmsgateCheck> {
  const b = snap.battery.value;
  const level = b?.level ?? null;
  const levelStatus = level === null ? 'pass' : level < 10 ? 'fail' : level < 25 ? 'warn' : 'pass';
  const plugged = b?.plugged?.toUpperCase() ?? '';
  const flags = (plugged.includes('AC') ? 2 : plugged.includes('USB') ? 4 : 0) + (b?.charging === true ? 1 : 0);
  const charging = b === null || b.charging === null ? UNKNOWN : flags;
  return {
    'battery:level': make(
      levelStatus,
      level === null ? UNKNOWN : Math.trunc(level),
      'percent',
      `Battery level in percent${level === null ? NOT_KNOWN : ''}`,
    ),
    'battery:charging': make(
      'pass',
      charging,
      'flags',
      `Is the phone charging?${charging === UNKNOWN ? NOT_KNOWN : ''}`,
    ),
  };
}

/** Termux:API's network type as SMSGate's cellular index (0 none, 1 unknown, 2G to 5G as 2 to 5). */
export function cellularIndex(networkType: string | null): number {
  const t = (networkType ?? '').toLowerCase();
  if (t === '' || t === 'none') return 0;
  if (t === 'nr') return 5;
  if (t === 'lte' || t === 'iwlan') return 4;
  if (/umts|hspa|hsdpa|hsupa|evdo|ehrpd|td_scdma|tdscdma/.test(t)) return 3;
  if (/gprs|edge|cdma|1xrtt|iden|gsm/.test(t)) return 2;
  return 1;
}

function connectionChecks(snap: Snapshot): Record<string, SmsgateCheck> {
  const w = snap.wifi.value;
  const t = snap.telephony.value;
  const wifi = w === null ? null : w.ip !== null;
  const mobile = t?.dataState == null ? null : t.dataState.toLowerCase() === 'connected';
  const known = wifi !== null || mobile !== null;
  const transport = (mobile === true ? 2 : 0) + (wifi === true ? 4 : 0);
  const connected = transport > 0;
  const unknownNote = known ? '' : NOT_KNOWN;
  return {
    'connection:status': make(
      !known || connected ? 'pass' : 'fail',
      known ? (connected ? 1 : 0) : UNKNOWN,
      'boolean',
      `Internet connection status${unknownNote}`,
    ),
    'connection:transport': make(
      !known || connected ? 'pass' : 'fail',
      known ? transport : UNKNOWN,
      'flags',
      `Network transport type${unknownNote}`,
    ),
    'connection:cellular': make(
      'pass',
      t === null ? UNKNOWN : cellularIndex(t.networkType),
      'index',
      `Cellular network type${t === null ? NOT_KNOWN : ''}`,
    ),
  };
}

/** The health from its facts: the worst check decides the overall status. */
export function smsgateHealthOf(runtime: RuntimeInfo, snap: Snapshot, outcomes: RecentOutcomes): SmsgateHealth {
  const checks = { 'messages:failed': messagesFailed(outcomes), ...batteryChecks(snap), ...connectionChecks(snap) };
  const statuses = Object.values(checks).map((c) => c.status);
  const status = statuses.includes('fail') ? 'fail' : statuses.includes('warn') ? 'warn' : 'pass';
  return { status, version: runtime.version, releaseId: releaseIdOf(runtime.version), checks };
}

export interface SmsgateHealthDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  /** The facts as they may be shown: shown() starts no read. */
  probes: Pick<Probes, 'shown'>;
  /** Messages settled sent and failed after a time. */
  outcomes: (since: number) => RecentOutcomes;
}

/** SMSGate's health now: GET /health's Basic form and the `system:ping` webhook's payload. */
export function createSmsgateHealth(deps: SmsgateHealthDeps): () => SmsgateHealth {
  return () => smsgateHealthOf(deps.runtime, deps.probes.shown(), deps.outcomes(deps.clock.now() - HOUR_MS));
}
