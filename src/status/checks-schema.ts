// The diagnostics checks, one zod schema per check: what /api/diagnostics answers and the
// OpenAPI document shows. The check functions (diagnostics.ts, queue-check.ts) return
// the types derived here, so a fact added to a check without its schema fails the build.
import * as z from 'zod';
import { MODES } from '../core/runtime.js';
import { ReasonSchema } from '../store/message-record.js';

export const CHECK_STATUSES = ['ok', 'degraded', 'failing', 'unknown'] as const;
/** Why the e-mail intake refused a mail or a step of one (status/smtp-check.ts; the metrics' `reason` label). */
export const SMTP_REFUSALS = [
  'not_local',
  'auth_missing',
  'auth_failed',
  'recipient_invalid',
  'recipient_opted_out',
  'too_many_recipients',
  'too_large',
  'no_text',
  'queue_full',
  'storage_unavailable',
  'sms_disabled',
] as const;

const MQTT_CHECK = 'degraded: the broker is away (HTTP, webhooks work); failing: it refuses a publish or subscription';
const iso = z.string().nullable().describe('ISO 8601 UTC, or null');
const PROBE_RESULTS = ['ok', 'never', 'not_found', 'timeout', 'permission_denied', 'api_error', 'no_output'] as const;
const probe = z.enum(PROBE_RESULTS);
const readAt = (maxAge: string) =>
  iso.describe(`when the reading shown was read (ISO 8601 UTC), never more than ${maxAge} ago; null: none shown`);

/** One count per reason, each named in the document (a record keyed by an enum leaves them undefined there). */
const smtpRefused = z.object(
  Object.fromEntries(SMTP_REFUSALS.map((reason) => [reason, z.number().int()])) as Record<
    (typeof SMTP_REFUSALS)[number],
    z.ZodNumber
  >,
);

const checkOf = <V extends z.ZodType>(value: V) =>
  z.object({
    status: z.enum(CHECK_STATUSES).describe('unknown: the phone did not tell (does not lower the overall status)'),
    value,
    hint: z.string().optional().describe('What to do; present when the check is not ok'),
  });

export const ChecksSchema = z.object({
  termuxApi: checkOf(
    z.object({
      appInstalled: z.boolean().nullable(),
      // Each probe by name: an object, so the document names them as properties.
      probes: z.object({ telephony: probe, battery: probe, wifi: probe, props: probe, apiApp: probe }),
    }),
  ),
  sms: checkOf(
    z.object({
      enabled: z.boolean(),
      mode: z.enum(MODES),
      lastHandoffAt: iso,
      lastHandoffOk: z.boolean().nullable(),
      consecutiveFailures: z.number().int(),
      lastFailureReason: ReasonSchema.nullable(),
      lastFailureAt: iso,
    }),
  ),
  database: checkOf(
    z.object({
      sizeBytes: z.number().int(),
      walBytes: z.number().int(),
      historySize: z.number().int(),
      integrity: z.string().describe('SQLite quick_check: ok, or what it found'),
      integrityCheckedAt: iso,
      lastWriteError: z.object({ code: z.string(), at: iso }).nullable(),
      fileDeleted: z.boolean().optional().describe('true when gateway.db was deleted while the gateway runs'),
    }),
  ),
  sendBudget: checkOf(
    z.object({ segmentsUsedLast60s: z.number().int(), budget: z.number().int(), nextSendAllowedAt: iso }),
  ),
  queue: checkOf(
    z.object({
      waiting: z.number().int(),
      paused: z.boolean(),
      nextAttemptAt: iso,
      oldestWaitingSince: iso,
      consecutiveTimeouts: z.number().int(),
      queueRate: z.number().int(),
      queuedSegmentsLast60s: z.number().int(),
      quietHours: z.string().nullable(),
    }),
  ),
  androidSmsLimit: checkOf(
    z.object({
      androidDefaultLimit: z.number().int(),
      gatewayBudget: z.number().int(),
      segmentsUsedLast60s: z.number().int(),
    }),
  ),
  battery: checkOf(
    z.object({
      level: z.number().nullable(),
      charging: z.boolean().nullable(),
      temperatureC: z.number().nullable(),
      health: z.string().nullable().optional(),
      readAt: readAt('5 minutes').optional(),
    }),
  ),
  wifi: checkOf(
    z.object({
      ssid: z.string().nullable(),
      ip: z.string().nullable(),
      rssi: z.number().nullable(),
      linkSpeedMbps: z.number().nullable().optional(),
      readAt: readAt('5 minutes').optional(),
    }),
  ),
  telephony: checkOf(
    z.object({
      simState: z.string().nullable(),
      carrier: z.string().nullable(),
      networkType: z.string().nullable(),
      roaming: z.boolean().nullable().optional(),
      simCount: z.number().int().nullable().optional(),
      readAt: readAt('30 minutes').optional(),
    }),
  ),
  disk: checkOf(z.object({ freeBytes: z.number().nullable(), freeMb: z.number().nullable() })),
  process: checkOf(
    z.object({
      uptimeSeconds: z.number().int(),
      rssMb: z.number(),
      heapUsedMb: z.number(),
      eventLoopLagMs: z.number(),
      nodeVersion: z.string(),
    }),
  ),
  apiKey: checkOf(z.object({ createdAt: iso, ageDays: z.number().int() }).describe('never the key itself')),
  webhooks: checkOf(
    z.object({
      pending: z.number().int(),
      targets: z.array(
        z.object({
          id: z.string().describe('wh_..., as in GET /api/webhooks'),
          source: z.enum(['env', 'api']).describe('env: SMS_GATEWAY_WEBHOOK_URLS; api: registered over the API'),
          url: z.string().describe('scheme, host and port only (path and query redacted)'),
          disabled: z.boolean(),
          pending: z.number().int(),
          delivered: z.number().int(),
          expired: z.number().int(),
          failedAttempts: z.number().int(),
          lastSuccessAt: iso,
          lastError: z.string().nullable(),
          lastErrorAt: iso,
        }),
      ),
      inbox: z
        .object({
          lastPollAt: iso,
          lastOk: z.boolean().nullable(),
          lastError: z.string().nullable(),
          consecutiveFailures: z.number().int(),
          received: z.number().int(),
          backlogFrom: z
            .number()
            .int()
            .nullable()
            .describe(
              'a poll found more new messages than it reads at once (10 pages of 100): the next poll reads on from ' +
                'this offset; null: none left',
            ),
        })
        .nullable()
        .describe('null while no inbox is read'),
    }),
  ),
  mqtt: checkOf(
    z
      .object({
        enabled: z.boolean().describe('false: SMS_GATEWAY_MQTT_URL is not set (the other fields are absent)'),
        state: z.enum(['connecting', 'connected', 'reconnecting', 'stopped']).optional(),
        broker: z.string().optional().describe('scheme://host:port, never the credentials'),
        clientId: z.string().optional(),
        since: iso.optional(),
        lastError: z.string().nullable().optional().describe('credentials removed'),
        lastErrorAt: iso.optional(),
        reconnects: z.number().int().optional(),
        nextAttemptAt: iso.optional(),
        eventsPublished: z.number().int().optional(),
        eventsDropped: z
          .number()
          .int()
          .optional()
          .describe('events made while the broker was away (webhooks still get them)'),
        subscriptionRefused: z.string().nullable().optional().describe('the filters the broker refused (its ACLs)'),
        refused: z
          .array(
            z.object({
              operation: z.enum(['publish', 'subscribe']),
              topic: z.string().describe('the topic (publish) or topic filter (subscribe)'),
              reasonCode: z.number().int().describe("the broker's MQTT 5 reason code, e.g. 135"),
              reason: z.string().describe('the code and its name, e.g. "135 Not authorized"'),
              at: z.string().describe('the last refusal of this topic'),
            }),
          )
          .optional()
          .describe('publishes and subscriptions the broker refuses (its ACLs), newest last: failing while one stands'),
      })
      .describe(MQTT_CHECK),
  ),
  smtp: checkOf(
    z
      .object({
        enabled: z.boolean().describe('false: SMS_GATEWAY_SMTP_PORT is not set (the other fields are absent)'),
        port: z.number().int().optional(),
        starttls: z.boolean().optional().describe('true: SMS_GATEWAY_SMTP_TLS_CERT and _KEY are set'),
        trustedSenders: z.number().int().optional().describe('entries of SMS_GATEWAY_SMTP_TRUSTED'),
        listening: z.boolean().optional(),
        since: iso.optional(),
        lastError: z.string().nullable().optional(),
        mailsAccepted: z.number().int().optional().describe('mails answered 250 since the start, repeats included'),
        mailsRepeated: z.number().int().optional().describe('mails whose Message-ID had queued its SMS already'),
        refused: smtpRefused.optional().describe('refused since the start, by reason'),
        lastRefusal: z
          .object({ reason: z.enum(SMTP_REFUSALS), at: z.string() })
          .nullable()
          .optional(),
      })
      .describe('the e-mail intake (docs/email.md); degraded when it stopped listening'),
  ),
});

export type Checks = z.infer<typeof ChecksSchema>;
export type CheckName = keyof Checks;
