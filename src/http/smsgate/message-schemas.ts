// SMSGate's message shapes (its app's local server, v1.68): the send request, the message state
// answered by every message route, the id in the path and the list's query. Fields SMSGate's
// clients send that change nothing here are taken and ignored, as its app ignores unknown ones.
import * as z from 'zod';
import { MAX_RECIPIENTS } from '../../sms/queue-request.js';
import { queryInt } from '../query-schemas.js';

const dateTime = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with Z or an offset' });

export const SmsgateSendSchema = z
  .object({
    id: z.string().min(1).max(36).nullish().describe('The message id (1 to 36 characters); made when absent'),
    message: z.string().nullish().describe('The text (SMSGate calls this field deprecated: use textMessage)'),
    textMessage: z.object({ text: z.string() }).nullish().describe('The text to send'),
    dataMessage: z
      .object({ data: z.string(), port: z.number().int() })
      .nullish()
      .describe('Refused (400): Termux:API sends text messages only'),
    phoneNumbers: z.array(z.string()).min(1).max(MAX_RECIPIENTS).describe('1 to 100 different recipients'),
    simNumber: z.number().int().min(1).max(8).nullish().describe('1-based SIM; default SMS_GATEWAY_DEFAULT_SIM'),
    withDeliveryReport: z
      .boolean()
      .nullish()
      .describe('Taken and ignored: Termux:API reports no delivery, so no Delivered state ever comes'),
    isEncrypted: z.boolean().nullish().describe('true is refused (400): nothing here decrypts'),
    priority: z
      .number()
      .int()
      .min(-128)
      .max(127)
      .nullish()
      .describe('Default 0; among due messages a higher one goes first. Nothing skips the pacing or quiet hours'),
    deviceId: z.string().nullish().describe("Optional; when given, this phone's device id (else 400)"),
    ttl: z.number().int().nullish().describe('Seconds it may wait before it expires unsent (not with validUntil)'),
    validUntil: dateTime.nullish().describe('When it expires unsent if still waiting (not with ttl)'),
    scheduleAt: dateTime.nullish().describe('Not handed off before this; must be in the future'),
  })
  .meta({ id: 'SmsgateSendRequest' });
export type SmsgateSend = z.infer<typeof SmsgateSendSchema>;

export const SmsgateSendQuerySchema = z.object({
  skipPhoneValidation: z
    .enum(['true', 'false'])
    .optional()
    .describe("Taken; the gateway's own check (3 to 15 digits, an optional +) always applies"),
});

/** The states a message or recipient shows here (Delivered and Cancelling never happen). */
export const SmsgateStateSchema = z.enum(['Pending', 'Processed', 'Sent', 'Failed', 'Cancelled']);

export const SmsgateMessageStateSchema = z
  .object({
    id: z.string(),
    deviceId: z.string().describe("This phone's device id (the same in GET /device)"),
    state: SmsgateStateSchema.describe(
      'From the recipients: any Pending, else any Cancelled, else any Processed, else all Failed: Failed, else Sent',
    ),
    isHashed: z.literal(false),
    isEncrypted: z.literal(false),
    textMessage: z.object({ text: z.string() }).optional().describe('The text (with includeContent, and on POST/GET)'),
    scheduleAt: z.string().optional().describe('Not handed off before this, when asked'),
    recipients: z.array(
      z.object({
        phoneNumber: z.string().describe('As the caller wrote it'),
        state: SmsgateStateSchema,
        error: z.string().optional().describe('Failed only: the reason and what it means'),
      }),
    ),
    states: z
      .partialRecord(SmsgateStateSchema, z.string())
      .describe('When each state was reached (the last recipient to reach it), ISO 8601 UTC'),
  })
  .meta({ id: 'SmsgateMessageState' });
export type SmsgateMessageState = z.infer<typeof SmsgateMessageStateSchema>;

export const SmsgateMessageParamsSchema = z.object({ id: z.string().min(1).max(200) });

export const SmsgateListQuerySchema = z.object({
  state: z
    .enum(['Pending', 'Cancelling', 'Cancelled', 'Processed', 'Sent', 'Delivered', 'Failed'])
    .optional()
    .describe('Only messages in this state'),
  limit: queryInt(1, 1000, 50).describe('At most this many (default 50)'),
  offset: queryInt(0, 1_000_000, 0).describe('Skip this many first'),
  from: dateTime.optional().describe('Accepted at or after this'),
  to: dateTime.optional().describe('Accepted at or before this (default now)'),
  includeContent: z.enum(['true', 'false']).optional().describe('Include textMessage (default false)'),
  deviceId: z.string().optional().describe("When given, this phone's device id (else 400)"),
});
