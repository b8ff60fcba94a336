// The diagnostics snapshot for a headless gateway: an overall status and named checks,
// each with its own status, the facts behind it, and a hint that says what to do when it
// is not ok. Facts the phone cannot tell are null (status "unknown"), never invented.
// Never contains the API key. The phone's checks are phone-checks.ts, the host's
// host-checks.ts; the others, and the snapshot put together, are here.
import { join } from 'node:path';
import type { Clock } from '../core/clock.js';
import { isoOrNull as iso, measureEventLoopLag } from '../core/clock.js';
import { databaseFileGone, quickCheck, type Db } from '../store/database.js';
import type { Probes } from '../device/probes.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { SendHealth } from '../sms/send-health.js';
import type { PacingUsage } from '../sms/pacing.js';
import type { QueueState } from '../sms/lane.js';
import { check, type CheckOf } from './check.js';
import type { Checks } from './checks-schema.js';
import { queueCheck } from './queue-check.js';
import { mqttCheck, type MqttHealth } from './mqtt-check.js';
import { smtpCheck, type SmtpHealth } from './smtp-check.js';
import { webhooksCheck } from './webhooks-check.js';
import type { TargetStatus } from '../store/webhook-targets.js';
import type { InboxHealth } from '../events/inbox-watcher.js';
import type { SecretFile } from '../core/keys.js';
import { REASON_HINTS } from '../sms/reasons.js';
import { BUDGET_SEGMENTS } from '../sms/pacing.js';
import { batteryCheck, telephonyCheck, termuxApiCheck, wifiCheck } from './phone-checks.js';
import { databaseCheck, diskCheck, processCheck } from './host-checks.js';

export type { Check, CheckStatus } from './check.js';
export { batteryCheck, telephonyCheck, termuxApiCheck, wifiCheck } from './phone-checks.js';

export const ANDROID_SMS_LIMIT = 30;
const INTEGRITY_TTL_MS = 3600_000;

export interface DiagnosticsDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  probes: Pick<Probes, 'get'>;
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
  /** The e-mail intake; null when it is off. */
  smtpHealth?: () => Readonly<SmtpHealth> | null;
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

export function androidSmsLimitCheck(usage: PacingUsage): CheckOf<'androidSmsLimit'> {
  const androidValue = {
    androidDefaultLimit: ANDROID_SMS_LIMIT,
    gatewayBudget: BUDGET_SEGMENTS,
    segmentsUsedLast60s: usage.segmentsUsed,
  };
  const androidHint =
    `Android asks for confirmation past ${ANDROID_SMS_LIMIT} segments a minute per app, and an ` +
    `unanswered prompt fails the send. Raise it from a computer: adb shell settings put global ` +
    `sms_outgoing_check_max_count ${BUDGET_SEGMENTS}`;
  return usage.segmentsUsed > ANDROID_SMS_LIMIT
    ? check('degraded', androidValue, androidHint)
    : check('ok', androidValue, androidHint);
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
    // Every fact older than its max age read again first (battery and Wi-Fi: 5 minutes).
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
      sendBudget: check('ok', {
        segmentsUsedLast60s: usage.segmentsUsed,
        budget: BUDGET_SEGMENTS,
        nextSendAllowedAt: iso(now + usage.waitMs),
      }),
      queue: queueCheck(deps.queueState(), usage, { now, queueRate: deps.queueRate, quietHours: deps.quietHours }),
      androidSmsLimit: androidSmsLimitCheck(usage),
      battery: batteryCheck(snap),
      wifi: wifiCheck(snap),
      telephony: telephonyCheck(snap),
      disk: diskCheck(deps.home),
      process: processCheck(now, runtime, await measureEventLoopLag()),
      // File times are the real clock's; the gateway's may be behind (a phone set back).
      apiKey: check('ok', {
        createdAt: iso(keyCreated),
        ageDays: Math.max(0, Math.floor((now - keyCreated) / 86_400_000)),
      }),
      webhooks: webhooksCheck(deps.webhookTargets(), deps.inboxHealth()),
      mqtt: mqttCheck(deps.mqttHealth?.() ?? null),
      smtp: smtpCheck(deps.smtpHealth?.() ?? null),
    };
    const statuses = Object.values(checks).map((c) => c.status);
    const status: 'ok' | 'degraded' | 'failing' = statuses.includes('failing')
      ? 'failing'
      : statuses.includes('degraded')
        ? 'degraded'
        : 'ok';
    return {
      status,
      checkedAt: iso(now)!,
      version: runtime.version,
      mode: runtime.mode,
      checks,
    };
  };
}

export type Diagnostics = Awaited<ReturnType<ReturnType<typeof createDiagnostics>>>;
