// What a delivery attempt posts: the wire body of an outbox head, rendered by its dialect from the
// typed event the outbox keeps (the native event: native-wire.ts; SMSGate's envelope:
// smsgate-envelopes.ts). A row stored before 0.5 kept its wire body and is posted as stored.
// Rendering reads only the row, so every retry of one event sends the same bytes.
import type { Head } from '../store/outbox.js';
import { nativeRowBody } from './native-wire.js';
import { smsgateRowBody } from './smsgate-envelopes.js';

/** A head's wire body: what it kept from before 0.5, else its dialect's rendering of its record. */
export function wireBody(h: Head): string {
  if (h.wire !== null) return h.wire;
  const row = { eventId: h.eventId, type: h.type, target: h.target, record: h.record ?? '{}' };
  return h.dialect === 'smsgate' ? smsgateRowBody(row) : nativeRowBody(row);
}
