// The events part: the webhook outbox (where every event is stored with the change that
// causes it, and announced after the commit), the targets (SMS_GATEWAY_WEBHOOK_URLS and
// those registered over the API), SMSGate's registrations (smsgate-webhooks.ts, their own lanes of
// the same outbox), their delivery and the test event. Delivery listens to
// `delivery.due`. Building has no side effects; start() lets delivery work through what
// waits from before, stop() ends it.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { ClockEvents } from '../core/clock-watch.js';
import type { Config } from '../core/config.js';
import type { Emitter, Subscriber } from '../core/dispatcher.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Db } from '../store/database.js';
import { createOutboxStore, type OutboxEvents } from '../store/outbox.js';
import { createWebhookTargetsTable } from '../store/webhook-targets.js';
import { createSmsgateWebhooksTable } from '../store/smsgate-webhooks.js';
import { smsgateFanOut, type EnvelopeFacts } from './smsgate-envelopes.js';
import { createSmsgateWebhooks } from './smsgate-webhooks.js';
import { createWebhookDelivery } from './delivery.js';
import { createWebhookTester } from './ping-targets.js';
import { createTargetStore } from './targets.js';

/** The configuration's section for webhook events. */
export type EventsConfig = Pick<Config, 'webhookUrls' | 'phoneNumber' | 'smsgatePingMinutes'>;

/** The device id SMSGate's clients see until the composition reports GET /device's (reportSmsgate). */
export const DEFAULT_SMSGATE_DEVICE_ID = 'sms-gateway';
const DEFAULT_PING_MINUTES = 15;

export interface EventsPartDeps {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  config: EventsConfig;
  events: Emitter<OutboxEvents> & Subscriber<OutboxEvents & ClockEvents>;
  /** The webhook signing secret (events/signing.ts keeps it in the home). */
  secret: () => string;
  /** Tests: a short delivery timeout, fixed jitter. */
  timeoutMs?: number | undefined;
  random?: (() => number) | undefined;
  logger?: Logger | undefined;
}

/** What other parts tell later (reportSmsgate): GET /device's id, SMSGate's message ids, the health. */
export interface SmsgateTold {
  deviceId: () => string;
  smsgateIdOf: EnvelopeFacts['smsgateIdOf'];
  health: () => unknown;
}

function smsgateFacts(deps: Pick<EventsPartDeps, 'runtime' | 'config'>) {
  const told: SmsgateTold = {
    deviceId: () => DEFAULT_SMSGATE_DEVICE_ID,
    smsgateIdOf: () => undefined,
    health: () => ({ status: 'pass', version: deps.runtime.version, checks: {} }),
  };
  const facts: EnvelopeFacts = {
    deviceId: () => told.deviceId(),
    phoneNumber: () => deps.config.phoneNumber ?? null,
    smsgateIdOf: (id) => told.smsgateIdOf(id),
  };
  return { told, facts };
}

export function createEventsPart(deps: EventsPartDeps) {
  const { db, clock, logger } = deps;
  const table = createWebhookTargetsTable(db);
  const smsgateTable = createSmsgateWebhooksTable(db);
  const { told, facts } = smsgateFacts(deps);
  const fanOut = smsgateFanOut(smsgateTable, facts);
  const outbox = createOutboxStore(db, table, deps.events, { table: smsgateTable, fanOut });
  const userAgent = `sms-gateway/${deps.runtime.version}`;
  const timing = { ...(deps.timeoutMs ? { timeoutMs: deps.timeoutMs } : {}) };
  const delivery = createWebhookDelivery({
    store: outbox,
    clock,
    secret: deps.secret,
    userAgent,
    logger,
    ...timing,
    ...(deps.random ? { random: deps.random } : {}),
  });
  const targets = createTargetStore(table, outbox);
  const tester = createWebhookTester({
    targets,
    outbox,
    clock,
    secret: deps.secret,
    userAgent,
    version: deps.runtime.version,
    logger,
    ...timing,
  });

  const smsgate = createSmsgateWebhooks({
    table: smsgateTable,
    outbox,
    clock,
    facts,
    pingIntervalMs: (deps.config.smsgatePingMinutes ?? DEFAULT_PING_MINUTES) * 60_000,
    health: () => told.health(),
    notify: () => delivery.notify(),
    logger,
  });

  deps.events.on('delivery.due', () => delivery.notify());
  deps.events.on('clock.jumped', (jump) => {
    outbox.shiftTimes(jump.deltaMs);
    delivery.clockJumped(jump.deltaMs);
  });

  return {
    outbox,
    delivery,
    targets,
    tester,
    smsgate,
    /** The webhook secret: SMSGate's signing key too (GET /settings shows it). */
    signingKey: () => deps.secret(),
    /** What SMSGate's envelopes show, as other parts know it: GET /device's id, message ids, the health. */
    reportSmsgate(later: Partial<SmsgateTold>) {
      Object.assign(told, later);
    },
    /** Start step 1: the stored env targets become SMS_GATEWAY_WEBHOOK_URLS (before settling anything). */
    syncTargets(now: number) {
      outbox.syncTargets(deps.config.webhookUrls, now);
    },
    start() {
      delivery.notify();
      smsgate.ping.start();
    },
    stop: async () => {
      await Promise.all([delivery.stop(), smsgate.ping.stop()]);
    },
  };
}

export type EventsPart = ReturnType<typeof createEventsPart>;
