// Webhook events: { id, type, createdAt, data }. The shape is defined with the store that
// makes and keeps them (store/event-record.ts); this is its name for the rooms above.
export {
  makeEvent,
  newEventId,
  type EventType,
  type ReceivedEvent,
  type ReceivedSmsData,
  type SettledEvent,
  type WebhookEvent,
} from '../store/event-record.js';
