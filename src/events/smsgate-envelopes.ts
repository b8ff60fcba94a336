// SMSGate's webhook envelopes: { id, webhookId, event, deviceId, payload }, one per registration of
// the event, each stored as its own outbox event (its id is the envelope's, the same on every
// retry). Payloads carry SMSGate's fields: messageId, sender, recipient, simNumber and the
// deprecated phoneNumber, then per event message/receivedAt, partsCount/sentAt, failedAt/reason.
// Sent here: sms:received, sms:sent, sms:failed and system:ping; the others are accepted at
// registration and never happen (no delivery report, data SMS or MMS through Termux:API, and a
// cancelled message makes no event).
import { newId } from '../core/ids.js';
import type { ReceivedEvent, SettledEvent, WebhookEvent } from '../store/event-record.js';
import type { FanOut, LaneEvent } from '../store/outbox.js';
import { smsgateLane, type SmsgateWebhooksTable } from '../store/smsgate-webhooks.js';

/** Every event SMSGate's app knows (v1.68.0), in its order. */
export const SMSGATE_EVENTS = [
  'sms:received',
  'sms:sent',
  'sms:delivered',
  'sms:failed',
  'system:ping',
  'sms:data-received',
  'mms:received',
  'mms:downloaded',
  'app:started',
  'sms:cancelled',
] as const;
export type SmsgateEvent = (typeof SMSGATE_EVENTS)[number];

/** The events this gateway sends; the others are accepted and never sent. */
export const SMSGATE_EVENTS_SENT: readonly SmsgateEvent[] = ['sms:received', 'sms:sent', 'sms:failed', 'system:ping'];

/** What an envelope needs besides its payload. */
export interface EnvelopeFacts {
  /** The device id SMSGate's clients see (GET /device). */
  deviceId: () => string;
  /** The phone's own number (SMS_GATEWAY_PHONE_NUMBER), when known. */
  phoneNumber: () => string | null;
  /** SMSGate's id of a message sent through POST /message; undefined: our msg_ id is shown. */
  smsgateIdOf: (messageId: string) => string | undefined;
}

/** A received SMS as SMSGate's sms:received payload. */
export function receivedPayload(
  sms: { id: string; from: string | null; body: string },
  receivedAt: string,
  own: string | null,
) {
  const sender = sms.from ?? '';
  return {
    messageId: sms.id,
    sender,
    recipient: own,
    simNumber: null,
    phoneNumber: sender,
    message: sms.body,
    receivedAt,
  };
}

/** A settled message as SMSGate's sms:sent or sms:failed payload. */
function settledPayload(e: SettledEvent, facts: EnvelopeFacts) {
  const m = e.data;
  const common = {
    messageId: facts.smsgateIdOf(m.id) ?? m.id,
    sender: facts.phoneNumber(),
    recipient: m.to,
    simNumber: m.simSlot,
    phoneNumber: m.to,
  };
  if (e.type === 'sms.sent') return { ...common, partsCount: m.segments, sentAt: m.updatedAt };
  return { ...common, failedAt: m.updatedAt, reason: m.reason ?? 'Unknown' };
}

/** One envelope per registration of `event`, as lane events stored at `at`. */
export function envelopes(
  table: Pick<SmsgateWebhooksTable, 'forEvent'>,
  event: SmsgateEvent,
  payload: unknown,
  deviceId: string,
  at: number,
): LaneEvent[] {
  return table.forEvent(event).map((w) => {
    const id = newId('evt', at);
    const body = JSON.stringify({ id, webhookId: w.id, event, deviceId, payload });
    return { id, type: event, lane: smsgateLane(w.id), body };
  });
}

const receivedOf = (e: ReceivedEvent, table: Pick<SmsgateWebhooksTable, 'inboxIdOf'>, own: string | null) =>
  receivedPayload(
    { id: table.inboxIdOf(e.data.smsId) ?? e.id, from: e.data.from, body: e.data.body },
    e.data.receivedAt ?? e.createdAt,
    own,
  );

/** The outbox's fan-out: what a recorded event makes for SMSGate's registrations, in its transaction. */
export function smsgateFanOut(table: SmsgateWebhooksTable, facts: EnvelopeFacts): FanOut {
  return (event: WebhookEvent, at: number): LaneEvent[] => {
    if (event.type === 'sms.received') {
      if (table.count('sms:received') === 0) return [];
      return envelopes(table, 'sms:received', receivedOf(event, table, facts.phoneNumber()), facts.deviceId(), at);
    }
    if (event.type === 'sms.sent' || event.type === 'sms.failed') {
      const name = event.type === 'sms.sent' ? 'sms:sent' : 'sms:failed';
      if (table.count(name) === 0) return [];
      return envelopes(table, name, settledPayload(event, facts), facts.deviceId(), at);
    }
    return [];
  };
}
