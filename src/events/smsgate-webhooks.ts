// Webhook registrations in SMSGate's dialect, as its routes show and change them: one event each,
// the same id again replaces one, http:// on the LAN allowed like every target, at most 50. Their
// events go through the same outbox and delivery as the native targets (at least once, retried for
// 24 hours, one envelope id across retries), signed SMSGate's way. Also what is sent without a
// recorded event: system:ping (smsgate-ping.ts) and an export of stored received SMS.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { gatewayError } from '../core/errors.js';
import { newId } from '../core/ids.js';
import { webhookUrlProblem } from '../core/webhook-url.js';
import type { OutboxStore } from '../store/outbox.js';
import type { SmsgateWebhookRow, SmsgateWebhooksTable } from '../store/smsgate-webhooks.js';
import {
  envelopes,
  fixedNow,
  type EnvelopeFacts,
  type SmsgateEvent,
  type SmsgateRecord,
  type StoredSms,
} from './smsgate-envelopes.js';
import { createSmsgatePing } from './smsgate-ping.js';

export const MAX_SMSGATE_WEBHOOKS = 50;

/** A registration as SMSGate's GET /webhooks lists it. */
export interface SmsgateWebhook {
  id: string;
  deviceId: null;
  url: string;
  /** One of SMSGATE_EVENTS (the route accepts no other). */
  event: SmsgateEvent;
  source: 'Local';
}

export interface SmsgateWebhooksOptions {
  table: SmsgateWebhooksTable;
  outbox: Pick<OutboxStore, 'enqueueLaneEvents'>;
  clock: Clock;
  facts: EnvelopeFacts;
  /** SMS_GATEWAY_PING_MINUTES in ms. */
  pingIntervalMs: number;
  /** system:ping's payload: SMSGate's health object (set once the status part exists). */
  health: () => unknown;
  /** Delivery has work. */
  notify: () => void;
  logger?: Logger | undefined;
}

const shown = (r: SmsgateWebhookRow): SmsgateWebhook => ({
  id: r.id,
  deviceId: null,
  url: r.url,
  event: r.event as SmsgateEvent,
  source: 'Local',
});

export function createSmsgateWebhooks(opts: SmsgateWebhooksOptions) {
  const { table, clock } = opts;
  const store = (event: SmsgateEvent, records: SmsgateRecord[], at: number): number => {
    const items = records.flatMap((r) => envelopes(table, event, r, at));
    if (items.length === 0) return 0;
    opts.outbox.enqueueLaneEvents(items, at);
    opts.notify();
    return items.length;
  };
  const ping = createSmsgatePing({
    clock,
    intervalMs: opts.pingIntervalMs,
    wanted: () => table.count('system:ping') > 0,
    ping: () => store('system:ping', [{ ...fixedNow(opts.facts), health: opts.health() }], clock.now()),
    logger: opts.logger,
  });
  const changed = () => ping.changed();
  return {
    /** The device id the envelopes carry (GET /device's). */
    deviceId: () => opts.facts.deviceId(),
    list: () => table.list().map(shown),
    /** Registrations of sms:received (they keep the inbox watcher running). */
    receivedCount: () => table.count('sms:received'),
    /** Adds, or replaces the registration with the same id (400 a bad URL, 409 beyond 50). */
    replace(w: { id?: string | undefined; url: string; event: SmsgateEvent }): SmsgateWebhook {
      const problem = webhookUrlProblem(w.url);
      if (problem) throw gatewayError('invalid_request', 'problem', `body.${problem}`);
      const at = clock.now();
      const id = w.id ?? newId('wh', at);
      const known = table.list();
      if (!known.some((r) => r.id === id) && known.length >= MAX_SMSGATE_WEBHOOKS) {
        throw gatewayError('too_many_webhooks', 'atMost', MAX_SMSGATE_WEBHOOKS);
      }
      const row = table.replace({ id, url: w.url, event: w.event }, at);
      opts.logger?.info({ id, event: w.event }, 'SMSGate webhook registered');
      changed();
      return shown(row);
    },
    /** Removes a registration with its pending events; an unknown id is nothing to do (as SMSGate's app). */
    remove(id: string): void {
      table.remove(id);
      changed();
    },
    /** Announces stored received SMS again to the sms:received registrations; how many envelopes were stored. */
    announceAgain(sms: StoredSms[]): number {
      const at = clock.now();
      const fixed = fixedNow(opts.facts);
      const now = new Date(at).toISOString();
      const records = sms.map((m) => ({ ...fixed, sms: { ...m, receivedAt: m.receivedAt ?? now } }));
      return store('sms:received', records, at);
    },
    ping,
  };
}

export type SmsgateWebhooks = ReturnType<typeof createSmsgateWebhooks>;
