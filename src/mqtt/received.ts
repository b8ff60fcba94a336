// Every received SMS on `<prefix>/<id>/received` (QoS 1, not retained), the state topic of
// Home Assistant's "Received SMS" event entity (discovery.ts): `{ event_type, from, contact,
// body, receivedAt, inReplyTo, keyword }`. Home Assistant's MQTT event platform reads
// `event_type` from the JSON and the rest as the event's attributes; it triggers on every
// message (also two identical ones in a row) and ignores a retained one. The event type is
// the first that applies: opt_out / opt_in (an opt-out keyword, only with
// SMS_GATEWAY_OPT_OUT on), keyword (a keyword rule matched), reply (inReplyTo is set),
// received. `contact` is the sender's name in SMS_GATEWAY_MQTT_CONTACTS, else null.
import type { Contact } from '../core/mqtt-settings.js';
import type { ReceivedEvent } from '../store/event-record.js';
import { optOutKeyword } from '../sms/opt-out-keywords.js';
import { normalizeRecipient } from '../sms/recipient.js';

/** The event types the entity announces, in the order they are decided. */
export const RECEIVED_EVENT_TYPES = ['opt_out', 'opt_in', 'keyword', 'reply', 'received'] as const;

export type ReceivedEventType = (typeof RECEIVED_EVENT_TYPES)[number];

export interface ReceivedDeps {
  contacts: Contact[];
  /** SMS_GATEWAY_OPT_OUT: only then are STOP and START opt_out / opt_in. */
  optOutEnabled: boolean;
}

const normalized = (raw: string): string | undefined => {
  const r = normalizeRecipient(raw);
  return r.ok ? r.number : undefined;
};

/** The contact whose number the sender is (both normalized), or null. */
export function contactOf(contacts: Contact[], from: string | null): string | null {
  if (from === null) return null;
  const number = normalized(from);
  if (number === undefined) return null;
  return contacts.find((c) => normalized(c.number) === number)?.name ?? null;
}

export function receivedEventType(
  deps: Pick<ReceivedDeps, 'optOutEnabled'>,
  body: string,
  keyword: string | null,
  inReplyTo: unknown,
): ReceivedEventType {
  const optOut = deps.optOutEnabled ? optOutKeyword(body) : null;
  if (optOut === 'opt_out' || optOut === 'opt_in') return optOut;
  if (keyword !== null) return 'keyword';
  if (inReplyTo !== null && inReplyTo !== undefined) return 'reply';
  return 'received';
}

/** The payload for an `sms.received` event. */
export function receivedPayload(deps: ReceivedDeps, event: ReceivedEvent): Record<string, unknown> {
  const { from, body, keyword, inReplyTo, receivedAt } = event.data;
  return {
    event_type: receivedEventType(deps, body, keyword, inReplyTo),
    from,
    contact: contactOf(deps.contacts, from),
    body,
    receivedAt: receivedAt ?? event.createdAt,
    inReplyTo,
    keyword,
  };
}
