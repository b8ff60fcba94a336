// The persisted webhook outbox: events (webhook_events) and one delivery row per enabled
// target and event (webhook_deliveries). record() joins the transaction of the change that
// causes the event (a message settles, an SMS arrives), so a crash loses none; once that
// transaction committed, the event is announced on the gateway's event path under the name
// its cause gave it (OutboxEvents), once, and `delivery.due` when a target is to get it; a
// rolled-back event is never announced (store/transaction.ts). An event row keeps the typed
// event, not its wire JSON: its id and type, and in `record` the JSON of its typed record with
// what was fixed when it happened (a native event: { createdAt, data }); the body a target
// receives is rendered from it at each attempt (events/wire-bodies.ts). A row stored before 0.5
// kept its wire body (`wire`), posted as stored. Delivery's rules (order, retries) are in events/.
// SMSGate's registrations (store/smsgate-webhooks.ts) get lanes of their own (target
// `smsgate:<id>`): a recorded event also stores, in its transaction, what the fan-out makes for
// them (one event row each: the envelope's id, SMSGate's event name and its record), and heads()
// lists their lanes too.
// Times here are wall-clock (an event's created_at bounds its 24-hour life, a delivery's
// next_attempt_at is its next try). A wall-clock jump (core/clock-watch.ts) must neither
// shorten nor stretch them: when a jump of delta is seen, shiftTimes(delta) moves every
// pending event's created_at and next try by delta, so ages are measured as if the jump
// had not happened (an event made while the clock was years behind lives its 24 hours
// after the correction; one made before the clock was set back still ends on time). The
// jump is seen before anything is stamped with the new time, so only older rows move.
import type { Emitter } from '../core/dispatcher.js';
import type { Db } from './database.js';
import type { ReceivedEvent, SettledEvent, WebhookEvent } from './event-record.js';
import { afterCommit, transaction } from './transaction.js';
import type { TargetStatus, WebhookTargetsTable } from './webhook-targets.js';
import { SMSGATE_LANE_PREFIX, type SmsgateWebhooksTable } from './smsgate-webhooks.js';

export type { TargetStatus } from './webhook-targets.js';

/** The oldest pending delivery of one target. */
export interface Head {
  seq: number;
  eventId: string;
  type: string;
  /** The lane: a native target's URL, or `smsgate:<id>` for an SMSGate registration. */
  target: string;
  /** Where it is posted. */
  url: string;
  /** How it is signed: Standard Webhooks (native) or SMSGate's X-Signature. */
  dialect: 'native' | 'smsgate';
  attempts: number;
  nextAttemptAt: number;
  createdAt: number;
  /** The typed record (JSON) the wire body is rendered from; null in a row stored before 0.5. */
  record: string | null;
  /** The exact wire body a row stored before 0.5 kept (posted as stored); null in every newer row. */
  wire: string | null;
}

/** What the outbox announces, each once the transaction that made the event committed. */
export interface OutboxEvents {
  /** A message settled, sms.sent or sms.failed (store/messages.ts, whichever path settled it). */
  'message.settled': SettledEvent;
  /** A received SMS was stored, with what it changed (events/inbox-memory.ts). */
  'sms.received': ReceivedEvent;
  /** An event was stored for at least one enabled webhook target: delivery has work. */
  'delivery.due': WebhookEvent;
}

/** One event for one lane of its own (an SMSGate registration): its id, type and typed record. */
export interface LaneEvent {
  id: string;
  type: string;
  lane: string;
  record: object;
}

/** What a native event row keeps (as JSON, in `record`) besides its id and type: its typed record. */
export type NativeRecord = Pick<WebhookEvent, 'createdAt' | 'data'>;
const nativeRecord = (e: WebhookEvent) =>
  JSON.stringify({ createdAt: e.createdAt, data: e.data } satisfies NativeRecord);

/** The lane events a recorded event also makes (events/smsgate-envelopes.ts), in its transaction. */
export type FanOut = (event: WebhookEvent, at: number) => LaneEvent[];

/** The name an event is announced under, given by the change that causes it. */
export type RecordedAs = Exclude<keyof OutboxEvents, 'delivery.due'>;

function statements(db: Db) {
  return {
    dropDeliveries: db.prepare(`DELETE FROM webhook_deliveries WHERE target = @url`),
    insertEvent: db.prepare(
      `INSERT INTO webhook_events (id, type, created_at, record) VALUES (@id, @type, @createdAt, @record)`,
    ),
    insertDelivery: db.prepare(
      `INSERT INTO webhook_deliveries (event_id, target, next_attempt_at) VALUES (@eventId, @target, @at)`,
    ),
    heads: db.prepare(`
      SELECT d.seq, d.event_id AS eventId, e.type, d.target, d.target AS url, 'native' AS dialect, d.attempts,
             d.next_attempt_at AS nextAttemptAt, e.created_at AS createdAt, e.record, e.wire
      FROM webhook_deliveries d
      JOIN webhook_events e ON e.id = d.event_id
      JOIN webhook_targets t ON t.url = d.target
      WHERE t.disabled_at IS NULL
        AND d.seq = (SELECT MIN(seq) FROM webhook_deliveries WHERE target = d.target)
      UNION ALL
      SELECT d.seq, d.event_id, e.type, d.target, w.url, 'smsgate', d.attempts, d.next_attempt_at, e.created_at,
             e.record, e.wire
      FROM webhook_deliveries d
      JOIN webhook_events e ON e.id = d.event_id
      JOIN smsgate_webhooks w ON '${SMSGATE_LANE_PREFIX}' || w.id = d.target
      WHERE d.seq = (SELECT MIN(seq) FROM webhook_deliveries WHERE target = d.target)
    `),
    deleteDelivery: db.prepare(`DELETE FROM webhook_deliveries WHERE seq = @seq`),
    retry: db.prepare(
      `UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = @next, last_error = @error WHERE ` +
        `seq = @seq`,
    ),
    shiftEvents: db.prepare(
      `UPDATE webhook_events SET created_at = created_at + @delta WHERE id IN (SELECT event_id FROM ` +
        `webhook_deliveries)`,
    ),
    shiftDeliveries: db.prepare(`UPDATE webhook_deliveries SET next_attempt_at = next_attempt_at + @delta`),
  };
}

/** SMSGate's registrations: their lanes, and what a recorded event makes for them. */
export interface SmsgateLanes {
  table: SmsgateWebhooksTable;
  fanOut: FanOut;
}

/** record(): the event for every enabled target and SMSGate's lanes, announced after the commit. */
function recorder(
  db: Db,
  s: ReturnType<typeof statements>,
  targets: WebhookTargetsTable,
  events: Emitter<OutboxEvents> | undefined,
  smsgate: SmsgateLanes | undefined,
) {
  const insertLaneEvents = (items: LaneEvent[], at: number) => {
    for (const x of items) {
      s.insertEvent.run({ id: x.id, type: x.type, createdAt: at, record: JSON.stringify(x.record) });
      s.insertDelivery.run({ eventId: x.id, target: x.lane, at });
    }
  };
  const recordTx = transaction(db, <K extends RecordedAs>(name: K, event: OutboxEvents[K], at: number): boolean => {
    const urls = targets.enabledUrls();
    if (urls.length > 0) {
      s.insertEvent.run({ id: event.id, type: event.type, createdAt: at, record: nativeRecord(event) });
      for (const target of urls) s.insertDelivery.run({ eventId: event.id, target, at });
    }
    const lanes = smsgate?.fanOut(event, at) ?? [];
    insertLaneEvents(lanes, at);
    const due = urls.length > 0 || lanes.length > 0;
    if (events) {
      afterCommit(db, () => {
        if (due) events.emit('delivery.due', event);
        events.emit(name, event);
      });
    }
    return due;
  });
  return { insertLaneEvents, recordTx };
}

export function createOutboxStore(
  db: Db,
  targets: WebhookTargetsTable,
  events?: Emitter<OutboxEvents>,
  smsgate?: SmsgateLanes,
) {
  const s = statements(db);
  const { insertLaneEvents, recordTx } = recorder(db, s, targets, events, smsgate);

  /** A target and its pending deliveries (the events stay for the other targets). */
  const removeTarget = transaction(db, (url: string) => {
    s.dropDeliveries.run({ url });
    targets.drop(url);
  });

  return {
    removeTarget,
    /**
     * Makes the stored env targets those of SMS_GATEWAY_WEBHOOK_URLS (a removed target's
     * pending events go too); targets registered over the API stay. Every target gets an id.
     */
    syncTargets: transaction<[urls: string[], at?: number], void>(db, (urls, at = Date.now()) => {
      for (const url of targets.syncEnv(urls, at)) removeTarget(url);
      targets.giveIds(at);
    }),
    /**
     * Stores the event for every enabled target, inside the causing change's transaction
     * (its own when there is none), and announces it as `name` after the commit (with
     * `delivery.due` first when a target is to get it). False when no target is enabled
     * (then it is only announced).
     */
    record: <K extends RecordedAs>(name: K, event: OutboxEvents[K], at: number): boolean => recordTx(name, event, at),
    /** Lane events made outside a recorded event (SMSGate's ping, an export), in one transaction. */
    enqueueLaneEvents: transaction(db, (items: LaneEvent[], at: number): void => insertLaneEvents(items, at)),
    heads: () => s.heads.all() as Head[],
    delivered: transaction(db, (h: Head, at: number) => {
      s.deleteDelivery.run({ seq: h.seq });
      targets.delivered(h.target, at);
    }),
    /** A failed attempt: retried at `next`, or given up (expired) when next is null. */
    failed: transaction(db, (h: Head, at: number, error: string, next: number | null) => {
      targets.failedAttempt(h.target, at, error);
      if (next === null) {
        s.deleteDelivery.run({ seq: h.seq });
        targets.expired(h.target);
      } else {
        s.retry.run({ seq: h.seq, next, error });
      }
    }),
    /** 410 Gone: the target is switched off and its pending events dropped (an SMSGate registration: removed). */
    disable: transaction(db, (url: string, at: number, error: string) => {
      targets.disable(url, at, error);
      s.dropDeliveries.run({ url });
      smsgate?.table.removeLane(url);
    }),
    /** The wall clock jumped by delta ms: pending events' lives and next tries move with it. */
    shiftTimes: transaction(db, (deltaMs: number) => {
      const delta = Math.round(deltaMs);
      s.shiftEvents.run({ delta });
      s.shiftDeliveries.run({ delta });
    }),
    enable: (url: string) => targets.enable(url),
    status: (): TargetStatus[] => targets.status(),
  };
}

export type OutboxStore = ReturnType<typeof createOutboxStore>;
