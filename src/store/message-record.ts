// The message record: one zod schema for what clients see of a message (the history,
// GET /api/messages/:id, webhook events, the client's types). The status, reason and
// encoding enums and their types are derived here, once; the store maps its rows to this
// record, http/schemas.ts and client.ts use the same schema.
import { z } from 'zod';
import { TagsSchema } from './message-tags.js';

export const MESSAGE_STATUSES = ['queued', 'sent', 'failed', 'cancelled'] as const;
export const REASONS = [
  'permission_denied',
  'termux_api_error',
  'timeout',
  'sender_unavailable',
  'interrupted',
  'simulated_failure',
  'not_in_sent_box',
  'unconfirmed',
  'expired',
  'opted_out',
] as const;
export const ENCODINGS = ['gsm7', 'ucs2'] as const;
/**
 * Where a message came from: a door (api: POST /api/sms/send, queue: POST /api/messages, mqtt,
 * smsgate, email, alert: the alert receivers) or the gateway's own automatic answers.
 */
const DOORS = ['api', 'queue', 'mqtt', 'smsgate', 'email', 'alert'] as const;
const ANSWERS = ['rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply'] as const;
export const ORIGINS = [...DOORS, ...ANSWERS] as const;

export const MessageStatusSchema = z.enum(MESSAGE_STATUSES);
export const ReasonSchema = z.enum(REASONS);
export const EncodingSchema = z.enum(ENCODINGS);
export const OriginSchema = z.enum(ORIGINS);

export const MessageRecordSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    body: z.string(),
    segments: z.number().int(),
    billedSegments: z.number().int(),
    status: MessageStatusSchema,
    reason: ReasonSchema.nullable(),
    sourceIp: z.string(),
    origin: OriginSchema.describe(
      'where it came from: api (POST /api/sms/send), queue (POST /api/messages), mqtt, smsgate, email, alert ' +
        '(an alert receiver), or an automatic answer: rule_reply, opt_out_reply, opt_in_reply, help_reply',
    ),
    createdAt: z.string().describe('ISO 8601 UTC'),
    updatedAt: z.string().describe('ISO 8601 UTC'),
    encoding: EncodingSchema,
    simSlot: z.number().int(),
    sendAt: z.string().nullable().describe('ISO 8601 UTC: not handed off before this (queued messages); null = as soon as the pace allows'),
    expiresAt: z.string().nullable().describe('ISO 8601 UTC: still waiting then, it fails with reason expired; null = never'),
    tags: TagsSchema.describe('The tags given with the request; {} when none'),
  })
  .meta({ id: 'MessageRecord' });

export type MessageStatus = z.infer<typeof MessageStatusSchema>;
export type Reason = z.infer<typeof ReasonSchema>;
export type Encoding = z.infer<typeof EncodingSchema>;
export type Origin = z.infer<typeof OriginSchema>;
export type MessageRecord = z.infer<typeof MessageRecordSchema>;
