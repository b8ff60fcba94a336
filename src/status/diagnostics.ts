// The diagnostics snapshot for a headless gateway: an overall status and named checks,
// each with its own status, the facts behind it, and a hint that says what to do when it
// is not ok. Facts the phone cannot tell are null (status "unknown"), never invented.
// Never contains the API key.
import { statSync, statfsSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { measureEventLoopLag } from '../core/event-loop-lag.js';
import { databaseFileGone, quickCheck, type Db } from '../store/database.js';
import { redactUrl } from '../core/redact.js';
import type { Probes, Snapshot } from '../device/probes.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { SendHealth } from '../sms/send-health.js';
import type { PacingUsage } from '../sms/pacing.js';
import type { QueueState } from '../sms/lane.js';
import { check, type CheckOf } from './check.js';
import type { Checks } from './checks-schema.js';
import { queueCheck } from './queue-check.js';
import { mqttCheck, type MqttHealth } from './mqtt-check.js';
import { webhooksCheck } from './webhooks-check.js';
import type { TargetStatus } from '../store/webhook-targets.js';
import type { InboxHealth } from '../events/inbox-watcher.js';
import type { SecretFile } from '../core/keys.js';
import { REASON_HINTS } from '../sms/reasons.js';
import { BUDGET_SEGMENTS } from '../sms/pacing.js';

export type { Check, CheckStatus } from './check.js';
import type { ProbeName, ProbeState } from '../device/probes.js';
import { isoOrNull as iso } from '../core/iso-time.js';

export const ANDROID_SMS_LIMIT = 30;
const INTEGRITY_TTL_MS = 3600_000;

export interface DiagnosticsDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  probes: Probes;
  db: Db;
  home: string;
  apiKey: SecretFile;
  /** Narrow views of the parts it reports on (wired in server/compose.ts). */
  sendHealth: () => Readonly<SendHealth>;
  historySize: () => number;
  budgetUsage: () => PacingUsage;
  queueState: () => QueueState;
  /** SMS_GATEWAY_QUEUE_RATE and SMS_GATEWAY_QUIET_HOURS, as configured. */
  queueRate: number;
  quietHours: string | null;
  webhookTargets: () => TargetStatus[];
  inboxHealth: () => Readonly<InboxHealth> | null;
  /** The MQTT bridge's connection; null when MQTT is off. */
  mqttHealth?: () => Readonly<MqttHealth> | null;
}

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};


export function termuxApiCheck(snap: Snapshot, mode: RuntimeInfo['mode']): CheckOf<'termuxApi'> {
  const probes = Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, v.last])) as Record<ProbeName, ProbeState<unknown>['last']>;
  const termuxProbes = [snap.telephony, snap.battery, snap.wifi];
  const value = { appInstalled: snap.apiApp.value?.installed ?? null, probes };
  if (termuxProbes.every((p) => p.last === 'never')) return check('unknown', value, 'The first check of the phone is still running.');
  if (mode === 'simulated' && termuxProbes.every((p) => p.last === 'not_found')) {
    return check('unknown', value, 'Simulated mode: there is no Termux:API on this machine.');
  }
  if (snap.apiApp.value?.installed === false) {
    return check('failing', value, 'The Termux:API app is not installed: install it from F-Droid (the same source as Termux) and open it once.');
  }
  if (termuxProbes.some((p) => p.last === 'not_found')) {
    return check('failing', value, 'The termux-api package is missing: run `pkg install termux-api`.');
  }
  if (termuxProbes.some((p) => p.last === 'timeout')) {
    return check(
      'failing',
      value,
      'Termux:API commands do not answer: open the Termux:API app once, exempt Termux and Termux:API from battery optimisation, and make sure both come from F-Droid.',
    );
  }
  if (termuxProbes.some((p) => p.last === 'permission_denied')) {
    return check('degraded', value, 'Termux:API is missing a permission: Settings > Apps > Termux:API > Permissions: allow SMS, Phone and Location.');
  }
  if (termuxProbes.some((p) => p.last !== 'ok')) return check('degraded', value, 'Some Termux:API commands fail: run `sms-gateway doctor`.');
  return check('ok', value);
}

export function batteryCheck(snap: Snapshot): CheckOf<'battery'> {
  const b = snap.battery.value;
  if (!b) return check('unknown', { level: null, charging: null, temperatureC: null, health: null }, 'The phone did not report its battery.');
  const value = { level: b.level, charging: b.charging, temperatureC: b.temperatureC, health: b.health };
  const hint = 'Keep the phone on its charger; a gateway in a drawer should never run on battery.';
  if (b.level !== null && b.level < 10 && b.charging !== true) return check('failing', value, hint);
  if (b.level !== null && b.level < 20 && b.charging !== true) return check('degraded', value, hint);
  if (b.temperatureC !== null && b.temperatureC >= 45) {
    return check('degraded', value, 'The battery is hot: give the phone air, out of direct sun.');
  }
  return check('ok', value);
}

export function wifiCheck(snap: Snapshot): CheckOf<'wifi'> {
  const w = snap.wifi.value;
  if (!w) return check('unknown', { ssid: null, ip: null, rssi: null, linkSpeedMbps: null }, 'The phone did not report its Wi-Fi.');
  const value = { ssid: w.ssid, ip: w.ip, rssi: w.rssi, linkSpeedMbps: w.linkSpeedMbps };
  if (w.ip === null) return check('degraded', value, 'Wi-Fi is not connected: clients on the LAN reach the gateway over Wi-Fi.');
  if (w.rssi !== null && w.rssi < -80) return check('degraded', value, 'The Wi-Fi signal is weak: move the phone closer to the access point.');
  return check('ok', value);
}

export function telephonyCheck(snap: Snapshot): CheckOf<'telephony'> {
  const t = snap.telephony.value;
  if (!t) {
    const value = { simState: null, carrier: null, networkType: null, roaming: null, simCount: null };
    return check('unknown', value, 'The phone did not report its SIM and network.');
  }
  const value = { simState: t.simState, carrier: t.carrier, networkType: t.networkType, roaming: t.roaming, simCount: t.simCount };
  if (t.simState !== null && t.simState.toLowerCase() !== 'ready') {
    return check('failing', value, `The SIM is not ready (${t.simState}): check that it is inserted and unlocked.`);
  }
  if (t.roaming === true) return check('degraded', value, 'The phone is roaming: SMS may cost more.');
  return check('ok', value);
}

export function smsCheck(h: Readonly<SendHealth>, runtime: RuntimeInfo): CheckOf<'sms'> {
  const smsValue = {
    enabled: runtime.smsEnabled,
    mode: runtime.mode,
    lastHandoffAt: iso(h.lastHandoffAt),
    lastHandoffOk: h.lastHandoffOk,
    consecutiveFailures: h.consecutiveFailures,
    lastFailureReason: h.lastFailureReason,
    lastFailureAt: iso(h.lastFailureAt),
  };
  const failureHint = h.lastFailureReason ? REASON_HINTS[h.lastFailureReason] : undefined;
  return !runtime.smsEnabled
    ? check('degraded', smsValue, 'Sending is switched off (SMS_GATEWAY_SMS_ENABLED=false).')
    : h.consecutiveFailures >= 3
      ? check('failing', smsValue, failureHint)
      : h.consecutiveFailures >= 1
        ? check('degraded', smsValue, failureHint)
        : check('ok', smsValue);
}

interface DatabaseFacts {
  dbPath: string;
  historySize: number;
  integrity: { result: string; at: number };
  storageError: SendHealth['storageError'];
  fileDeleted: boolean;
}

export function databaseCheck(f: DatabaseFacts): CheckOf<'database'> {
  const dbValue = {
    sizeBytes: fileSize(f.dbPath),
    walBytes: fileSize(`${f.dbPath}-wal`),
    historySize: f.historySize,
    integrity: f.integrity.result,
    integrityCheckedAt: iso(f.integrity.at),
    lastWriteError: f.storageError ? { code: f.storageError.code, at: iso(f.storageError.at) } : null,
  };
  return f.fileDeleted
    ? check('failing', { ...dbValue, fileDeleted: true }, 'gateway.db was deleted while the gateway runs: sends are refused (nothing would be kept). Restart the gateway (sv restart sms-gateway, or stop and start it); it makes a new database.')
    : f.integrity.result !== 'ok'
      ? check('failing', dbValue, 'The database is damaged: stop the gateway, back up gateway.db, and start again (a new one is made if you remove it).')
      : f.storageError
        ? check('failing', dbValue, `The database cannot be written (${f.storageError.code}): free some space on the phone; sends resume by themselves.`)
        : check('ok', dbValue);
}

export function androidSmsLimitCheck(usage: PacingUsage): CheckOf<'androidSmsLimit'> {
  const androidValue = { androidDefaultLimit: ANDROID_SMS_LIMIT, gatewayBudget: BUDGET_SEGMENTS, segmentsUsedLast60s: usage.segmentsUsed };
  const androidHint = `Android asks for confirmation past ${ANDROID_SMS_LIMIT} segments a minute per app, and an unanswered prompt fails the send. Raise it from a computer: adb shell settings put global sms_outgoing_check_max_count ${BUDGET_SEGMENTS}`;
  return usage.segmentsUsed > ANDROID_SMS_LIMIT ? check('degraded', androidValue, androidHint) : check('ok', androidValue, androidHint);
}

export function diskCheck(home: string): CheckOf<'disk'> {
  let free: number | null = null;
  try {
    const fs = statfsSync(home);
    free = fs.bavail * fs.bsize;
  } catch {
    free = null;
  }
  const diskValue = { freeBytes: free, freeMb: free === null ? null : mb(free) };
  return free === null
    ? check('unknown', diskValue)
    : free < 10 * 1024 * 1024
      ? check('failing', diskValue, 'Less than 10 MB free: sends will fail. Free some space on the phone.')
      : free < 100 * 1024 * 1024
        ? check('degraded', diskValue, 'Less than 100 MB free: free some space on the phone.')
        : check('ok', diskValue);
}

export function processCheck(now: number, runtime: RuntimeInfo, lag: number): CheckOf<'process'> {
  const mem = process.memoryUsage();
  const processValue = {
    uptimeSeconds: Math.round((now - runtime.startedAt) / 1000),
    rssMb: mb(mem.rss),
    heapUsedMb: mb(mem.heapUsed),
    eventLoopLagMs: lag,
    nodeVersion: process.version,
  };
  return lag > 1000 ? check('degraded', processValue, 'The event loop is slow: the phone is overloaded.') : check('ok', processValue);
}

export function createDiagnostics(deps: DiagnosticsDeps) {
  let integrity: { result: string; at: number } | null = null;
  const dbPath = join(deps.home, 'gateway.db');

  const integrityCheck = () => {
    const now = deps.clock.now();
    if (!integrity || now - integrity.at > INTEGRITY_TTL_MS) {
      let result: string;
      try {
        result = quickCheck(deps.db);
      } catch (err) {
        result = `error: ${(err as Error).message}`;
      }
      integrity = { result, at: now };
    }
    return integrity;
  };

  return async function diagnostics() {
    const snap = await deps.probes.get();
    const now = deps.clock.now();
    const { runtime } = deps;
    const h = deps.sendHealth();
    const usage = deps.budgetUsage();
    const keyCreated = deps.apiKey.createdAt();
    const checks: Checks = {
      termuxApi: termuxApiCheck(snap, runtime.mode),
      sms: smsCheck(h, runtime),
      database: databaseCheck({
        dbPath,
        historySize: deps.historySize(),
        integrity: integrityCheck(),
        storageError: h.storageError,
        fileDeleted: databaseFileGone(deps.db),
      }),
      sendBudget: check('ok', { segmentsUsedLast60s: usage.segmentsUsed, budget: BUDGET_SEGMENTS, nextSendAllowedAt: iso(now + usage.waitMs) }),
      queue: queueCheck(deps.queueState(), usage, { now, queueRate: deps.queueRate, quietHours: deps.quietHours }),
      androidSmsLimit: androidSmsLimitCheck(usage),
      battery: batteryCheck(snap),
      wifi: wifiCheck(snap),
      telephony: telephonyCheck(snap),
      disk: diskCheck(deps.home),
      process: processCheck(now, runtime, await measureEventLoopLag()),
      // File times are the real clock's; the gateway's may be behind (a phone set back).
      apiKey: check('ok', { createdAt: iso(keyCreated), ageDays: Math.max(0, Math.floor((now - keyCreated) / 86_400_000)) }),
      webhooks: webhooksCheck(deps.webhookTargets(), deps.inboxHealth()),
      mqtt: mqttCheck(deps.mqttHealth?.() ?? null),
    };
    const statuses = Object.values(checks).map((c) => c.status);
    const status = statuses.includes('failing') ? 'failing' : statuses.includes('degraded') ? 'degraded' : 'ok';
    return {
      status: status as 'ok' | 'degraded' | 'failing',
      checkedAt: iso(now)!,
      version: runtime.version,
      mode: runtime.mode,
      checks,
    };
  };
}

export type Diagnostics = Awaited<ReturnType<ReturnType<typeof createDiagnostics>>>;
