// The gateway's typed events, as the outbox keeps them (store/outbox.ts: the id and type, and
// { createdAt, data }), the event path carries them and every listener (webhook delivery, MQTT,
// metrics) receives them: { id, type, createdAt, data }, with `data` typed by `type` (a received
// SMS, a settled message's record, the test ping), so no listener parses its fields again. The id
// doubles as the webhook-id header, so it stays the same across every retry of the same event.
// Kept in the store because the store makes events where a change is committed (a message
// settles: store/message-settling.ts).
import { newId } from '../core/ids.js';
import type { MessageRecord } from './message-record.js';
import type { InReplyTo } from './message-reads.js';

/** A received SMS, as its `sms.received` event tells it. */
export interface ReceivedSmsData {
  smsId: number;
  from: string | null;
  contact: string | null;
  body: string;
  /** ISO 8601 UTC; null when the phone printed a time nobody can read. */
  receivedAt: string | null;
  /** As the phone printed it. */
  receivedLocal: string | null;
  threadId: number | null;
  /** Termux:API does not say on which SIM an SMS arrived. */
  simSlot: null;
  inReplyTo: InReplyTo | null;
  /** The keyword of the rule it triggered, or null. */
  keyword: string | null;
}

export interface TestEventData {
  message: string;
  version: string;
}

interface EventOf<T extends string, D> {
  id: string;
  type: T;
  createdAt: string;
  data: D;
}

export type ReceivedEvent = EventOf<'sms.received', ReceivedSmsData>;
/** A message settled (sms.sent or sms.failed): its record. */
export type SettledEvent = EventOf<'sms.sent' | 'sms.failed', MessageRecord>;
export type TestEvent = EventOf<'gateway.test', TestEventData>;
export type WebhookEvent = ReceivedEvent | SettledEvent | TestEvent;
export type EventType = WebhookEvent['type'];

/** An event's data, by its type. */
interface DataByType {
  'sms.received': ReceivedSmsData;
  'gateway.test': TestEventData;
  'sms.sent': MessageRecord;
  'sms.failed': MessageRecord;
}
type DataOf<T extends EventType> = DataByType[T];

export const newEventId = (nowMs: number) => newId('evt', nowMs);

export function makeEvent<T extends EventType>(type: T, data: DataOf<T>, nowMs: number, id = newEventId(nowMs)) {
  const event: EventOf<T, DataOf<T>> = { id, type, createdAt: new Date(nowMs).toISOString(), data };
  return event;
}
