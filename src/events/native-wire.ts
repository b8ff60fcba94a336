// The native webhook event as a target receives it, its one definition: { id, type, createdAt, data }
// in that order, `data` typed by `type` (store/event-record.ts). Rendered at each delivery attempt
// from the outbox's typed record, and for the test event; nothing here reads the clock or the
// configuration, so one event's bytes are the same on every retry.
import type { EventType, WebhookEvent } from '../store/event-record.js';
import type { NativeRecord } from '../store/outbox.js';

/** The JSON a native target receives. */
export interface NativeWireEvent {
  id: string;
  type: EventType;
  createdAt: string;
  data: WebhookEvent['data'];
}

/** The wire body of a typed event. */
export function nativeBody(e: WebhookEvent): string {
  const wire: NativeWireEvent = { id: e.id, type: e.type, createdAt: e.createdAt, data: e.data };
  return JSON.stringify(wire);
}

/** The wire body of a native outbox row: its id and type, and its record { createdAt, data }. */
export function nativeRowBody(row: { eventId: string; type: string; record: string }): string {
  const r = JSON.parse(row.record) as NativeRecord;
  return nativeBody({ id: row.eventId, type: row.type, createdAt: r.createdAt, data: r.data } as WebhookEvent);
}
