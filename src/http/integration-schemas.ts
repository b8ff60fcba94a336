// Zod schemas of the integration routes: received messages (GET /api/inbox) and webhook
// targets (/api/webhooks). Same conventions as http/schemas.ts.
import * as z from 'zod';
import { InboxRecordSchema } from '../store/inbox.js';
import { WebhookTargetSchema } from '../events/targets.js';
import { WebhookTestResultSchema } from '../events/ping-targets.js';
import { PaginationSchema, prefixedId } from './schemas.js';
import { queryInt, searchQueryFields, sinceNotAfterUntil, UNTIL_BEFORE_SINCE } from './query-schemas.js';

export { InboxRecordSchema, WebhookTargetSchema, WebhookTestResultSchema };

export const InboxQuerySchema = z
  .object({
    limit: queryInt(1, 100, 20).describe('1 to 100, default 20'),
    offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0).describe('0 or more, default 0'),
    from: z
      .string()
      .max(64, 'must be at most 64 characters')
      .refine((s) => /[0-9a-z]/i.test(s), 'must hold a number or a sender name')
      .optional()
      .describe(
        'Only messages from this sender, as the phone stored it; spaces, dashes, dots, parentheses and a leading + ' +
          'are ignored, letters compared case-insensitively (+49 151 1234567 = 491511234567, but 0151 1234567 is ' +
          'another sender)',
      ),
    ...searchQueryFields('the sender'),
  })
  .strict()
  .refine(sinceNotAfterUntil, UNTIL_BEFORE_SINCE);

export const InboxPageSchema = z.object({
  success: z.literal(true),
  data: z.array(InboxRecordSchema).describe('newest first'),
  pagination: PaginationSchema,
});

export const WebhookRequestSchema = z
  .object({
    url: z.string().describe('http:// or https:// URL, at most 2048 characters, no user:password@'),
  })
  .strict();

export const WebhookResponseSchema = z.object({ success: z.literal(true), data: WebhookTargetSchema });

export const WebhookListSchema = z.object({
  success: z.literal(true),
  data: z.array(WebhookTargetSchema).describe('oldest first'),
});

export const WebhookParamsSchema = z.object({ id: prefixedId('wh_').describe('wh_...') });

export const WebhookTestResponseSchema = z.object({
  success: z.literal(true),
  data: z.array(WebhookTestResultSchema).describe('one result per target, in the order of GET /api/webhooks'),
});
