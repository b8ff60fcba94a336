// The example answers of the inbox and webhook routes (the OpenAPI document shows one per
// operation), typed against their schemas so a field that changes fails the build.
import type * as z from 'zod';
import type {
  InboxPageSchema,
  WebhookListSchema,
  WebhookResponseSchema,
  WebhookTestResponseSchema,
} from './integration-schemas.js';

const target = {
  id: 'wh_01m7ysbves8b8r2h46j3ekdy4w',
  url: 'http://192.168.1.10:8123/api/webhook/sms-gateway',
  source: 'api' as const,
  disabled: false,
  createdAt: '2026-11-21T10:12:00.000Z',
};

export const inboxExample: z.input<typeof InboxPageSchema> = {
  success: true,
  data: [
    {
      id: 'in_01m7ysd2k9q4d3w6g0h1t2v3x4',
      from: '+15551230001',
      contact: 'Alice',
      body: '1',
      receivedAt: '2026-11-21T10:14:03.000Z',
      simSlot: null,
      inReplyTo: { id: 'msg_01m7ysbves8b8r2h46j3ekdy4v', tags: { alarm: 'garage' } },
      keyword: null,
    },
  ],
  pagination: { limit: 20, offset: 0, total: 1, hasNext: false },
};

export const webhookListExample: z.input<typeof WebhookListSchema> = { success: true, data: [target] };
export const webhookExample: z.input<typeof WebhookResponseSchema> = { success: true, data: target };
export const webhookTestExample: z.input<typeof WebhookTestResponseSchema> = {
  success: true,
  data: [
    { id: target.id, url: target.url, source: 'api', delivered: true, status: 200, error: null, switchedBackOn: false },
  ],
};
