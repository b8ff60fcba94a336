// Zod schemas of every request and response: validation, the route types, and (through
// fastify-type-provider-zod and @fastify/swagger) the OpenAPI document. Response objects
// are parsed on the way out, which also strips any field not declared here.
import * as z from 'zod';
import { MODES, RUNTIME_SIMULATIONS } from '../core/runtime.js';
import { ERROR_CODES } from '../core/errors.js';
import { MAX_RECIPIENTS } from '../sms/queue-request.js';
import { ChecksSchema } from '../status/checks-schema.js';
import { EncodingSchema, MessageRecordSchema } from '../store/message-record.js';
import { TagsSchema } from '../store/message-record.js';
import { queryInt } from './query-schemas.js';

export { MessageRecordSchema };

export const ErrorBodySchema = z
  .object({
    success: z.literal(false),
    smsSent: z.literal(false),
    error: z.object({ code: z.enum(ERROR_CODES), message: z.string().describe('What went wrong and what to do') }),
    retryAfterSeconds: z
      .number()
      .int()
      .min(1)
      .optional()
      .describe('429, sender_busy, queue_full: the same as Retry-After'),
    messageId: z.string().optional().describe('502: the failed message, to look it up in the history'),
  })
  .meta({ id: 'ErrorBody', description: "Every error but the guards' 401 and 403" });

export const GuardBodySchema = z
  .object({ error: z.string() })
  .meta({ id: 'GuardError', description: "The guards' answer (401 key, 403 local network)" });

export const SendRequestSchema = z
  .object({
    to: z.string().describe('Recipient number; spaces, dashes, dots and parentheses are ignored'),
    message: z.string().describe('Text to send, exactly as given'),
    simSlot: z.number().int().min(1).max(8).optional().describe('1-based SIM slot; default SMS_GATEWAY_DEFAULT_SIM'),
    tags: TagsSchema.optional().describe(
      'Labels kept with the message, returned in its record and events and in the inReplyTo of a reply',
    ),
  })
  .strict()
  .meta({ examples: [{ to: '+1 555 123 4567', message: 'Your order has shipped.', tags: { order: '1042' } }] });

export const SendResultSchema = z.object({
  success: z.literal(true),
  mode: z.enum(MODES),
  smsSent: z.literal(true),
  messageId: z.string(),
  status: z.literal('queued'),
  segments: z.number().int(),
  simSlot: z.number().int(),
  encoding: EncodingSchema,
  warning: z.string().optional().describe('Present when the message is more than one segment'),
});

const isoWithZone = z.iso
  .datetime({ offset: true })
  .describe('ISO 8601 with a zone or Z, e.g. 2026-11-23T07:30:00+01:00');

export const QueueRequestSchema = z
  .object({
    to: z
      .union([z.string(), z.array(z.string()).min(1).max(MAX_RECIPIENTS)])
      .describe(
        `One recipient, or an array of 1 to ${MAX_RECIPIENTS} different ones; each is validated as on the send path`,
      ),
    message: z.string().describe('Text to send, exactly as given'),
    simSlot: z.number().int().min(1).max(8).optional().describe('1-based SIM slot; default SMS_GATEWAY_DEFAULT_SIM'),
    sendAt: isoWithZone.optional().describe('Not handed off before this (past = now; at most 30 days ahead)'),
    expiresAt: isoWithZone.optional().describe('Still waiting then: failed with reason expired, never sent'),
    tags: TagsSchema.optional().describe(
      'Labels kept with each queued record, returned in its record and events and in the inReplyTo of a reply',
    ),
    priority: z
      .number()
      .int()
      .min(-128)
      .max(127)
      .optional()
      .describe(
        'Default 0. Among the waiting messages that are due, a higher priority is handed off first; ' +
          'it never skips the pacing, the phone limit or quiet hours',
      ),
  })
  .strict()
  .meta({
    examples: [
      {
        to: ['+15551230001', '+15551230002'],
        message: 'Practice moved to 18:00',
        sendAt: '2026-11-23T07:30:00+01:00',
        expiresAt: '2026-11-23T17:00:00+01:00',
      },
    ],
  });

export const QueuedResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(MessageRecordSchema).describe('one record per recipient, in the order given, each status queued'),
});

export const PaginationSchema = z.object({
  limit: z.number().int(),
  offset: z.number().int(),
  total: z.number().int(),
  hasNext: z.boolean(),
});

export const MessagesPageSchema = z.object({
  success: z.literal(true),
  data: z.array(MessageRecordSchema),
  pagination: PaginationSchema,
});

/** An id path parameter: the gateway's ids start with their kind's prefix (msg_, wh_); any other is a 400. */
export const prefixedId = (prefix: string) => z.string().startsWith(prefix, { error: `must start with ${prefix}` });

export const MessageParamsSchema = z.object({
  id: prefixedId('msg_').describe('The message id, as answered when it was sent or queued (msg_...)'),
});

export const MessageResponseSchema = z.object({ success: z.literal(true), data: MessageRecordSchema });

export const CountsSchema = z.object({
  accepted: z.number().int().describe('messages accepted (queued records created)'),
  sent: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
  queued: z.number().int().describe('accepted, not yet sent, failed or cancelled'),
  segments: z.number().int().describe('segments of the accepted messages'),
  billedSegments: z.number().int().describe('segments handed to the radio (0 in simulated mode)'),
});

export const StatsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    timeZone: z.string().describe('the zone days and months are counted in'),
    today: CountsSchema.extend({ date: z.string().describe('YYYY-MM-DD') }),
    month: CountsSchema.extend({ month: z.string().describe('YYYY-MM') }),
    allTime: CountsSchema,
  }),
});

export const DailyStatsQuerySchema = z
  .object({ days: queryInt(1, 90, 14).describe('1 to 90 days ending today, default 14') })
  .strict();

export const DailyStatsResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    timeZone: z.string().describe('the zone days are counted in'),
    days: z
      .array(CountsSchema.extend({ date: z.string().describe('YYYY-MM-DD') }))
      .describe('every day, oldest first, today last; a day without messages has zeros'),
  }),
});

const CountsWithDate = CountsSchema.extend({ date: z.string() });
const CountsWithMonth = CountsSchema.extend({ month: z.string() });

export const HostInfoSchema = z.object({
  phoneNumber: z.string().nullable().describe('SMS_GATEWAY_PHONE_NUMBER; Android rarely tells it'),
  carrier: z.string().nullable(),
  networkType: z.string().nullable(),
  simState: z.string().nullable(),
  roaming: z.boolean().nullable(),
  simCount: z.number().int().nullable(),
  sims: z.array(z.object({ slot: z.number().int(), carrier: z.string().nullable(), state: z.string().nullable() })),
  defaultSimSlot: z.number().int(),
  device: z.object({
    manufacturer: z.string().nullable(),
    model: z.string().nullable(),
    androidVersion: z.string().nullable(),
  }),
  counters: z.object({
    timeZone: z.string(),
    today: CountsWithDate,
    month: CountsWithMonth,
    allTime: CountsSchema,
    historySize: z.number().int(),
  }),
  gateway: z.object({
    version: z.string(),
    mode: z.enum(MODES),
    simulation: z.enum(RUNTIME_SIMULATIONS),
    smsEnabled: z.boolean(),
    startedAt: z.string(),
    uptimeSeconds: z.number().int(),
    lanUrls: z.array(z.string()),
  }),
});

export const DiagnosticsSchema = z.object({
  status: z.enum(['ok', 'degraded', 'failing']).describe('the worst of the checks (unknown counts as ok)'),
  checkedAt: z.string(),
  version: z.string(),
  mode: z.enum(MODES),
  checks: ChecksSchema,
});

export const HostInfoResponseSchema = z.object({ success: z.literal(true), data: HostInfoSchema });
export const DiagnosticsResponseSchema = z.object({ success: z.literal(true), data: DiagnosticsSchema });
