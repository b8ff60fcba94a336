// SMSGate's webhook envelopes, their one definition: { id, webhookId, event, deviceId, payload }, one
// per registration of the event, each stored as its own outbox event: its id (the envelope's, the same
// on every retry), SMSGate's event name and its typed record (SmsgateRecord: the message record, the
// received SMS or the health, with what was fixed when it happened: the device id, the phone's
// number, SMSGate's message id). The envelope is rendered from that record at each delivery attempt
// (smsgateRowBody), reading no clock and no configuration, so one event's bytes are the same on
// every retry. Payloads carry SMSGate's fields: messageId, sender, recipient, simNumber and the
// deprecated phoneNumber, then per event message/receivedAt, partsCount/sentAt, failedAt/reason.
// Sent here: sms:received, sms:sent, sms:failed and system:ping; the others are accepted at
// registration and never happen (no delivery report, data SMS or MMS through Termux:API, and a
// cancelled message makes no event).
import { newId } from '../core/ids.js';
import type { ReceivedEvent, SettledEvent, WebhookEvent } from '../store/event-record.js';
import type { MessageRecord } from '../store/message-record.js';
import type { FanOut, LaneEvent } from '../store/outbox.js';
import { SMSGATE_LANE_PREFIX, smsgateLane, type SmsgateWebhooksTable } from '../store/smsgate-webhooks.js';
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

/** A received SMS as SMSGate shows it: its id (the inbox's in_...), sender, text and ISO time. */
export interface StoredSms {
  id: string;
  from: string | null;
  body: string;
  receivedAt: string | null;
}

/** What one envelope's event fixed when it happened. */
interface Fixed {
  deviceId: string;
  /** The phone's own number then. */
  phoneNumber: string | null;
}

/** An SMSGate event's typed record, as the outbox keeps it (by its event name). */
export type SmsgateRecord =
  | (Fixed & { sms: StoredSms & { receivedAt: string } })
  | (Fixed & { messageId: string; message: MessageRecord })
  | (Fixed & { health: unknown });

type ReceivedRecord = Extract<SmsgateRecord, { sms: unknown }>;
type SettledRecord = Extract<SmsgateRecord, { message: unknown }>;

/** The JSON an SMSGate registration receives. */
export interface SmsgateEnvelope {
  id: string;
  webhookId: string;
  event: SmsgateEvent;
  deviceId: string;
  payload: unknown;
}

/** A received SMS as SMSGate's sms:received payload. */
function receivedPayload(r: ReceivedRecord) {
  const sender = r.sms.from ?? '';
  return {
    messageId: r.sms.id,
    sender,
    recipient: r.phoneNumber,
    simNumber: null,
    phoneNumber: sender,
    message: r.sms.body,
    receivedAt: r.sms.receivedAt,
  };
}

/** A settled message as SMSGate's sms:sent or sms:failed payload. */
function settledPayload(event: SmsgateEvent, r: SettledRecord) {
  const m = r.message;
  const common = {
    messageId: r.messageId,
    sender: r.phoneNumber,
    recipient: m.to,
    simNumber: m.simSlot,
    phoneNumber: m.to,
  };
  if (event === 'sms:sent') return { ...common, partsCount: m.segments, sentAt: m.updatedAt };
  return { ...common, failedAt: m.updatedAt, reason: m.reason ?? 'Unknown' };
}

function payloadOf(event: SmsgateEvent, r: SmsgateRecord): unknown {
  if ('sms' in r) return receivedPayload(r);
  if ('message' in r) return settledPayload(event, r);
  return { health: r.health };
}

/** The wire body of an SMSGate lane's outbox row: the envelope, rendered from its typed record. */
export function smsgateRowBody(row: { eventId: string; type: string; target: string; record: string }): string {
  const event = row.type as SmsgateEvent;
  const r = JSON.parse(row.record) as SmsgateRecord;
  const envelope: SmsgateEnvelope = {
    id: row.eventId,
    webhookId: row.target.slice(SMSGATE_LANE_PREFIX.length),
    event,
    deviceId: r.deviceId,
    payload: payloadOf(event, r),
  };
  return JSON.stringify(envelope);
}

/** One envelope's event per registration of `event`, each with its own id, stored at `at`. */
export function envelopes(
  table: Pick<SmsgateWebhooksTable, 'forEvent'>,
  event: SmsgateEvent,
  record: SmsgateRecord,
  at: number,
): LaneEvent[] {
  return table.forEvent(event).map((w) => ({ id: newId('evt', at), type: event, lane: smsgateLane(w.id), record }));
}

/** What the device and the phone's number are now, for a record made now. */
export const fixedNow = (facts: EnvelopeFacts): Fixed => ({
  deviceId: facts.deviceId(),
  phoneNumber: facts.phoneNumber(),
});

const receivedOf = (e: ReceivedEvent, table: Pick<SmsgateWebhooksTable, 'inboxIdOf'>, facts: EnvelopeFacts) => ({
  ...fixedNow(facts),
  sms: {
    id: table.inboxIdOf(e.data.smsId) ?? e.id,
    from: e.data.from,
    body: e.data.body,
    receivedAt: e.data.receivedAt ?? e.createdAt,
  },
});

const settledOf = (e: SettledEvent, facts: EnvelopeFacts): SettledRecord => ({
  ...fixedNow(facts),
  messageId: facts.smsgateIdOf(e.data.id) ?? e.data.id,
  message: e.data,
});

/** The outbox's fan-out: what a recorded event makes for SMSGate's registrations, in its transaction. */
export function smsgateFanOut(table: SmsgateWebhooksTable, facts: EnvelopeFacts): FanOut {
  return (event: WebhookEvent, at: number): LaneEvent[] => {
    if (event.type === 'sms.received') {
      if (table.count('sms:received') === 0) return [];
      return envelopes(table, 'sms:received', receivedOf(event, table, facts), at);
    }
    if (event.type === 'sms.sent' || event.type === 'sms.failed') {
      const name = event.type === 'sms.sent' ? 'sms:sent' : 'sms:failed';
      if (table.count(name) === 0) return [];
      return envelopes(table, name, settledOf(event, facts), at);
    }
    return [];
  };
}
