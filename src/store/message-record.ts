// The message record: one zod schema for what clients see of a message (the history,
// GET /api/messages/:id, webhook events, the client's types). The status, reason and
// encoding enums and their types are derived here, once; the store maps its rows to this
// record, http/schemas.ts and client.ts use the same schema.
import * as z from 'zod';

// --- tags
// A message's tags (docs/receiving.md, replies): a small object of the client's own labels, at
// most 8 keys of 1 to 32 letters, digits, `_`, `.` or `-`, each a string of at most 64
// characters. Accepted on every send path, stored with the message (column `tags`, JSON;
// NULL when none), returned in its record as an object (`{}` when none) and handed back in
// the `inReplyTo` of a reply. One schema here for validation, records and the document.
export const MAX_TAGS = 8;
export const TAG_KEY = /^[A-Za-z0-9_.-]{1,32}$/;
export const MAX_TAG_VALUE = 64;

export const TagsSchema = z
  .record(
    z.string().regex(TAG_KEY),
    z.string().max(MAX_TAG_VALUE, `a tag's value must be at most ${MAX_TAG_VALUE} characters`),
    {
      error: (issue) =>
        issue.code === 'invalid_key' ? 'a tag name must be 1 to 32 letters, digits, _ . or -' : undefined,
    },
  )
  .refine((tags) => Object.keys(tags).length <= MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .meta({ maxProperties: MAX_TAGS })
  .describe(
    `The client's own labels: at most ${MAX_TAGS} keys ([A-Za-z0-9_.-], 1 to 32 characters), string values of at ` +
      `most ${MAX_TAG_VALUE} characters`,
  );

export type Tags = z.infer<typeof TagsSchema>;

/** The stored form: JSON, or NULL for no tags. */
export function tagsColumn(tags: Tags | undefined): string | null {
  return tags === undefined || Object.keys(tags).length === 0 ? null : JSON.stringify(tags);
}

/** The record's form: an object, `{}` for none (also for an unreadable column). */
export function tagsOf(column: string | null): Tags {
  if (column === null) return {};
  try {
    const parsed: unknown = JSON.parse(column);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Tags) : {};
  } catch {
    return {};
  }
}

// --- the record
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
    sendAt: z
      .string()
      .nullable()
      .describe('ISO 8601 UTC: not handed off before this (queued messages); null = as soon as the pace allows'),
    expiresAt: z
      .string()
      .nullable()
      .describe('ISO 8601 UTC: still waiting then, it fails with reason expired; null = never'),
    tags: TagsSchema.describe('The tags given with the request; {} when none'),
  })
  .meta({ id: 'MessageRecord' });

export type MessageStatus = z.infer<typeof MessageStatusSchema>;
export type Reason = z.infer<typeof ReasonSchema>;
export type Encoding = z.infer<typeof EncodingSchema>;
export type Origin = z.infer<typeof OriginSchema>;
export type MessageRecord = z.infer<typeof MessageRecordSchema>;
