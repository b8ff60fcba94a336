// The alert receivers' intake: one notification (sms/alert-notification.ts) becomes one
// SMS (sms/alert-text.ts) per recipient, queued through the queue's own intake
// (sms/enqueue.ts: pacing, budget, opt-out, storage and queue_full refusals all as there;
// queue_full for the whole notification when its new messages do not all fit), tagged with
// its source. Recipients are numbers or contact names, at most 10.
// Idempotency: Alertmanager and Grafana retry a notification they could not deliver (a
// timeout, a 5xx) for about a group_interval, so each recipient's message carries a key
// derived from the source, the group key, the status, the alerts' sorted (fingerprint,
// startsAt, status) and the number. The keys live on the message records (a UNIQUE
// column), so they last while the record is in the history (every waiting message, the
// newest 1000 settled ones), in the gateway's own space of keys (sms/idempotency.ts), which no
// caller's Idempotency-Key can reach; on top of that a key counts only for RETRY_WINDOW_MS: the same
// notification again after that (Alertmanager's repeat_interval, default 4 h) is a repeat
// and is sent again. The key names its window (a time bucket); a lookup asks this bucket
// and the one before, so a retry just across a bucket's edge still finds its first message.
// Look-up and commit run in one synchronous step, so two retries at once cannot both queue.
import type { Logger } from 'pino';
import { gatewayError } from '../core/errors.js';
import type { Clock } from '../core/clock.js';
import type { Contact } from '../core/mqtt-settings.js';
import type { MessageRow, MessageStore } from '../store/messages.js';
import type { Enqueue } from './enqueue.js';
import { hashOf, ownKey } from './idempotency.js';
import type { AlertNotification } from './alert-notification.js';
import { alertText } from './alert-text.js';
import { normalizeRecipient } from './recipient.js';

/** At most this many recipients per receiver call. */
export const MAX_ALERT_RECIPIENTS = 10;
/** A notification seen again within this time is a retry (never sent twice); later, a repeat (sent again). */
export const RETRY_WINDOW_MS = 30 * 60_000;

export interface AlertIntakeDeps {
  enqueue: Pick<Enqueue, 'accept' | 'ensureRoom'>;
  store: Pick<MessageStore, 'byIdempotencyKey'>;
  clock: Clock;
  /** SMS_GATEWAY_CONTACTS (or its old name SMS_GATEWAY_MQTT_CONTACTS). */
  contacts: () => Contact[];
  logger?: Logger | undefined;
}

export interface AlertRecipient {
  id: string;
  to: string;
  contact: string | null;
  /** Queued by an earlier call of this notification (a retry): nothing new was queued for it. */
  replay: boolean;
}

export interface AlertOutcome {
  /** The SMS this call queued; when it queued nothing new (a replay), the text queued before. */
  text: string;
  /** Nothing new was queued: every recipient's message is the one an earlier call queued. */
  replay: boolean;
  queued: AlertRecipient[];
  skipped: (AlertRecipient & { reason: 'opted_out' })[];
}

interface Target {
  number: string;
  contact: string | null;
}

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
/** A name as the URL may write it: a `+` is a space there (form encoding; names have no `+`). */
const asName = (s: string) => fold(s.replaceAll('+', ' '));

/** `to` as numbers (contact names resolved), each number once; invalid_request names the bad one. */
export function alertRecipients(to: string, contacts: Contact[]): Target[] {
  const items = to.split(',').map((s) => s.trim());
  if (items.length > MAX_ALERT_RECIPIENTS) {
    throw gatewayError(
      'invalid_request',
      'problem',
      `query.to names ${items.length} recipients; at most ${MAX_ALERT_RECIPIENTS}.`,
    );
  }
  const targets: Target[] = [];
  items.forEach((item, i) => {
    const contact = contacts.find(
      (c) => fold(c.name) === fold(item) || fold(c.name) === asName(item) || c.slug === fold(item),
    );
    const checked = contact ? normalizeRecipient(contact.number) : normalizeRecipient(item);
    if (!checked.ok) {
      const what = item === '' ? 'is empty' : `is neither a phone number nor a contact name in SMS_GATEWAY_CONTACTS`;
      throw gatewayError('invalid_request', 'problem', `query.to[${i}] ${what}.`);
    }
    if (!targets.some((t) => t.number === checked.number))
      targets.push({ number: checked.number, contact: contact?.name ?? null });
  });
  return targets;
}

/**
 * The notification's identity: the same for a retry, different for new alerts, a new start, or
 * an alert of the group that resolved (each alert's status: Alertmanager sends the group again
 * with the same alerts, one of them resolved, and that is news, not a retry).
 */
function notificationKey(n: AlertNotification): string {
  const pairs = n.alerts
    .map((a) => [a.fingerprint, a.startsAt, a.status])
    .sort(([a], [b]) => (a! < b! ? -1 : a! > b! ? 1 : 0));
  return hashOf([n.source, n.groupKey, n.status, pairs, n.truncated]);
}

const keyFor = (identity: string, number: string, bucket: number) =>
  `alert:${hashOf([identity, number]).slice(0, 48)}:${bucket}`;

/** The key (before its space) this notification's message to `number` gets at `now`: what a retry finds. */
export function alertKey(n: AlertNotification, number: string, now: number): string {
  return keyFor(notificationKey(n), number, Math.floor(now / RETRY_WINDOW_MS));
}

export function createAlertIntake(deps: AlertIntakeDeps) {
  const { clock, logger } = deps;

  /** The message this notification already made for this number within the window, if any. */
  const earlier = (identity: string, number: string, now: number): MessageRow | undefined => {
    const bucket = Math.floor(now / RETRY_WINDOW_MS);
    for (const b of [bucket, bucket - 1]) {
      const row = deps.store.byIdempotencyKey(ownKey(keyFor(identity, number, b)));
      if (row && now - row.createdAt < RETRY_WINDOW_MS) return row;
    }
    return undefined;
  };

  return {
    /** Queues the notification's SMS to each recipient (the first message again for a retry). */
    receive(n: AlertNotification, to: string, sourceIp: string): AlertOutcome {
      const targets = alertRecipients(to, deps.contacts());
      const text = alertText(n);
      const identity = notificationKey(n);
      const outcome: AlertOutcome = { text, replay: false, queued: [], skipped: [] };
      const firsts = targets.map(({ number }) => earlier(identity, number, clock.now()));
      const missing = firsts.filter((row) => row === undefined).length;
      if (missing > 0) deps.enqueue.ensureRoom(missing); // room for all of them, or none is queued
      let replayed = 0;
      for (const [i, { number, contact }] of targets.entries()) {
        const now = clock.now();
        let row: { id: string; status: string; reason: string | null } | undefined = firsts[i];
        const replay = firsts[i] !== undefined;
        if (row) replayed++;
        else {
          const key = keyFor(identity, number, Math.floor(now / RETRY_WINDOW_MS));
          const accepted = deps.enqueue.accept(
            { to: number, message: text, tags: { source: n.source, status: n.status } },
            {
              origin: 'alert',
              sourceIp,
              ownKey: key,
            },
          );
          if (accepted instanceof Promise || accepted.kind !== 'accepted')
            throw new Error('a new idempotency key was answered from before');
          row = accepted.records[0]!;
        }
        const entry = { id: row.id, to: number, contact, replay };
        if (row.status === 'failed' && row.reason === 'opted_out')
          outcome.skipped.push({ ...entry, reason: 'opted_out' });
        else outcome.queued.push(entry);
      }
      if (replayed === targets.length) {
        // A retry whose text changed (an edited summary) sends nothing new: say what was kept.
        outcome.replay = true;
        outcome.text = firsts[0]!.body;
      }
      logger?.info(
        { source: n.source, status: n.status, alerts: n.alerts.length, recipients: targets.length, replayed },
        'alert notification received',
      );
      return outcome;
    },
  };
}

export type AlertIntake = ReturnType<typeof createAlertIntake>;
