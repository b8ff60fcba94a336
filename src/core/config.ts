// Configuration: one zod schema for every SMS_GATEWAY_* variable and LOG_LEVEL.
// The process environment wins over $SMS_GATEWAY_HOME/.env; an invalid value is a
// ConfigError naming the variable (the CLI turns it into exit code 2).
import { existsSync, readFileSync } from 'node:fs';
import { requireBuiltin } from './builtin.js';
import { resolveHome } from './home.js';
import { parseQuietHours, type QuietHours } from './quiet-hours.js';
import { join } from 'node:path';
import * as z from 'zod';
import { MODES, SIMULATIONS, type Mode, type Simulation } from './runtime.js';
import { redactUrl, webhookUrlProblem } from './webhook-url.js';
import { ContactsText, MqttEnvShape, mqttSettings, type Contact, type MqttSettings } from './mqtt-settings.js';
import { SmtpEnvShape, smtpSettings, type SmtpSettings } from './smtp-settings.js';
import {
  DEFAULT_OPT_IN_REPLY,
  DEFAULT_OPT_OUT_REPLY,
  optionalReplyText,
  replyText,
  type OptOutSettings,
} from './opt-out-settings.js';

// Required, not imported (core/builtin.ts): parseEnv is all the gateway needs of node:util.
const { parseEnv } = requireBuiltin<typeof import('node:util')>('node:util');

export class ConfigError extends Error {
  override name = 'ConfigError';
}

const blankToUndefined = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const intInRange = (min: number, max: number, fallback: number) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .regex(/^\s*\d+\s*$/, `must be a whole number from ${min} to ${max}`)
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .default(fallback),
  );

const booleanFlag = (fallback: boolean) =>
  z.preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() || undefined : value),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
        error: 'must be true or false',
      })
      .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
      .default(fallback),
  );

const webhookUrls = z.preprocess(
  blankToUndefined,
  z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    )
    .pipe(
      z.array(
        z.string().superRefine((url, ctx) => {
          const problem = webhookUrlProblem(url);
          if (problem) ctx.addIssue({ code: 'custom', message: `${redactUrl(url)}: ${problem}` });
        }),
      ),
    )
    .default([]),
);

export const EnvSchema = z.object({
  SMS_GATEWAY_HOME: z.preprocess(blankToUndefined, z.string().optional()),
  SMS_GATEWAY_MODE: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(MODES, { error: 'must be real or simulated' }).optional(),
  ),
  SMS_GATEWAY_SIMULATION: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z.enum(SIMULATIONS, { error: 'must be success, failure or random' }).default('success'),
  ),
  SMS_GATEWAY_SMS_ENABLED: booleanFlag(true),
  SMS_GATEWAY_DEFAULT_SIM: intInRange(1, 8, 1),
  SMS_GATEWAY_PHONE_NUMBER: z.preprocess(blankToUndefined, z.string().trim().optional()),
  SMS_GATEWAY_SEND_TIMEOUT_SECONDS: intInRange(1, 600, 30),
  SMS_GATEWAY_WEBHOOK_URLS: webhookUrls,
  SMS_GATEWAY_INBOX: booleanFlag(false),
  SMS_GATEWAY_INBOX_POLL_SECONDS: intInRange(1, 86_400, 30),
  SMS_GATEWAY_REPLY_WINDOW_HOURS: intInRange(0, 720, 24),
  SMS_GATEWAY_QUEUE_RATE: intInRange(1, 60, 30),
  SMS_GATEWAY_PING_MINUTES: intInRange(1, 1440, 15),
  SMS_GATEWAY_QUIET_HOURS: z.preprocess(
    blankToUndefined,
    z
      .string()
      .transform((raw, ctx) => {
        const q = parseQuietHours(raw);
        if (typeof q === 'string') {
          ctx.addIssue({ code: 'custom', message: q });
          return z.NEVER;
        }
        return q;
      })
      .optional(),
  ),
  SMS_GATEWAY_OPT_OUT: booleanFlag(false),
  SMS_GATEWAY_OPT_OUT_REPLY: replyText(DEFAULT_OPT_OUT_REPLY),
  SMS_GATEWAY_OPT_IN_REPLY: replyText(DEFAULT_OPT_IN_REPLY),
  SMS_GATEWAY_HELP_REPLY: optionalReplyText,
  LOG_LEVEL: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  ...MqttEnvShape,
  // The contacts serve MQTT and the alert receivers: SMS_GATEWAY_CONTACTS, else its old name
  // SMS_GATEWAY_MQTT_CONTACTS (same syntax; the new name wins when both are set).
  SMS_GATEWAY_CONTACTS: z.preprocess(blankToUndefined, ContactsText.optional()),
  ...SmtpEnvShape,
});

/** Variables whose value is never repeated in an error (a password, a webhook URL's token). */
const SECRET_VARIABLES = new Set(['SMS_GATEWAY_MQTT_URL', 'SMS_GATEWAY_MQTT_PASSWORD', 'SMS_GATEWAY_WEBHOOK_URLS']);
/** Whether an error may repeat the variable's value: never a credential (a URL may carry one) or a secret. */
const isSecretVariable = (name: string) => SECRET_VARIABLES.has(name) || name.endsWith('_SECRET');

export interface Config {
  home: string;
  /** Forced mode, or undefined for auto-detection at start. */
  mode: Mode | undefined;
  simulation: Simulation;
  smsEnabled: boolean;
  defaultSim: number;
  phoneNumber: string | undefined;
  sendTimeoutMs: number;
  webhookUrls: string[];
  /** SMS_GATEWAY_INBOX: read and store received SMS even when nobody else listens. */
  inbox: boolean;
  inboxPollMs: number;
  /** A received SMS replies to the newest message sent to its sender within this many hours (0 = off). */
  replyWindowHours: number;
  /** Queued hand-offs: at most this many segments per rolling 60 s (1 to 60). */
  queueRate: number;
  quietHours: QuietHours | undefined;
  /** SMSGate's system:ping every this many minutes while one is registered (default 15). */
  smsgatePingMinutes?: number | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** The MQTT bridge; undefined unless SMS_GATEWAY_MQTT_URL is set. */
  mqtt: MqttSettings | undefined;
  /** Opt-out keywords and their answers (SMS_GATEWAY_OPT_OUT, *_REPLY). */
  optOut: OptOutSettings;
  /**
   * Named numbers (SMS_GATEWAY_CONTACTS, or SMS_GATEWAY_MQTT_CONTACTS): MQTT's notify entities, the alert receivers'
   * `to`.
   */
  contacts: Contact[];
  /** The e-mail intake (core/smtp-settings.ts); undefined when SMS_GATEWAY_SMTP_PORT is not set. */
  smtp?: SmtpSettings | undefined;
}

/** What of the configuration decides whether the inbox watcher runs. */
export type InboxSwitches = Pick<Config, 'webhookUrls' | 'inbox'> & Partial<Pick<Config, 'mqtt' | 'optOut'>>;

/**
 * The inbox watcher runs when someone listens for received SMS: a webhook target (from
 * SMS_GATEWAY_WEBHOOK_URLS, or `registeredTargets` registered over the API), the MQTT
 * bridge (sms.received events, the last received SMS sensor) or SMS_GATEWAY_INBOX=true
 * (GET /api/inbox only), SMS_GATEWAY_OPT_OUT=true (keywords). One place, so every listener adds one clause.
 */
export function inboxWatcherEnabled(config: InboxSwitches, registeredTargets = 0): boolean {
  return (
    config.inbox ||
    config.webhookUrls.length > 0 ||
    registeredTargets > 0 ||
    config.mqtt !== undefined ||
    config.optOut?.enabled === true
  );
}

/** Reads $SMS_GATEWAY_HOME/.env (if any); the real environment overrides it. */
export function readEnvFile(home: string): Record<string, string> {
  const path = join(home, '.env');
  if (!existsSync(path)) return {};
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError(`cannot read ${path}: ${(err as Error).message}`);
  }
  const parsed = parseEnv(text);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(parsed)) {
    if (k !== 'SMS_GATEWAY_HOME' && typeof v === 'string') out[k] = v;
  }
  return out;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const home = resolveHome(env);
  const merged: Record<string, string | undefined> = { ...readEnvFile(home) };
  for (const key of Object.keys(EnvSchema.shape)) {
    if (env[key] !== undefined) merged[key] = env[key];
  }
  // Parsed once a process: jitless, as zod otherwise generates and compiles a parser for the
  // schema's 40-odd variables first (about 5 ms of a cold start's CPU, to save microseconds once).
  const result = EnvSchema.safeParse(merged, { jitless: true });
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const shown = isSecretVariable(name) ? '(not shown)' : JSON.stringify(merged[name] ?? '');
    throw new ConfigError(`invalid ${name}=${shown}: ${issue.message}`);
  }
  const e = result.data;
  const contacts = e.SMS_GATEWAY_CONTACTS ?? e.SMS_GATEWAY_MQTT_CONTACTS;
  const smtp = smtpSettings(e);
  if (smtp && 'problem' in smtp) throw new ConfigError(smtp.problem);
  return {
    home,
    mode: e.SMS_GATEWAY_MODE,
    simulation: e.SMS_GATEWAY_SIMULATION,
    smsEnabled: e.SMS_GATEWAY_SMS_ENABLED,
    defaultSim: e.SMS_GATEWAY_DEFAULT_SIM,
    phoneNumber: e.SMS_GATEWAY_PHONE_NUMBER,
    sendTimeoutMs: e.SMS_GATEWAY_SEND_TIMEOUT_SECONDS * 1000,
    webhookUrls: e.SMS_GATEWAY_WEBHOOK_URLS,
    inbox: e.SMS_GATEWAY_INBOX,
    inboxPollMs: e.SMS_GATEWAY_INBOX_POLL_SECONDS * 1000,
    replyWindowHours: e.SMS_GATEWAY_REPLY_WINDOW_HOURS,
    queueRate: e.SMS_GATEWAY_QUEUE_RATE,
    quietHours: e.SMS_GATEWAY_QUIET_HOURS,
    smsgatePingMinutes: e.SMS_GATEWAY_PING_MINUTES,
    logLevel: e.LOG_LEVEL,
    mqtt: mqttSettings({ ...e, SMS_GATEWAY_MQTT_CONTACTS: contacts }),
    optOut: {
      enabled: e.SMS_GATEWAY_OPT_OUT,
      optOutReply: e.SMS_GATEWAY_OPT_OUT_REPLY,
      optInReply: e.SMS_GATEWAY_OPT_IN_REPLY,
      helpReply: e.SMS_GATEWAY_HELP_REPLY ?? '',
    },
    contacts,
    smtp,
  };
}
