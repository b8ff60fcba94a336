// The webhook event's shape: { id, type, createdAt, data }, as the outbox stores it and every
// listener (webhook delivery, MQTT) receives it. The id doubles as the webhook-id header,
// so it stays the same across every retry of the same event. Kept in the store because the
// store makes events where a change is committed (a message settles: store/messages.ts).
import { newId } from '../core/ids.js';

export type EventType = 'sms.sent' | 'sms.failed' | 'sms.received' | 'gateway.test';

export interface WebhookEvent {
  id: string;
  type: EventType;
  createdAt: string;
  data: Record<string, unknown>;
}

export const newEventId = (nowMs: number) => newId('evt', nowMs);

type Data = Record<string, unknown>;

export function makeEvent(type: EventType, data: Data, nowMs: number, id = newEventId(nowMs)): WebhookEvent {
  return { id, type, createdAt: new Date(nowMs).toISOString(), data };
}
