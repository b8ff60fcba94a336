// The events part: the webhook outbox (where every event is stored with the change that
// causes it, and announced after the commit), the targets (SMS_GATEWAY_WEBHOOK_URLS and
// those registered over the API), their delivery and the test event. Delivery listens to
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
import { createWebhookDelivery } from './delivery.js';
import { createWebhookTester } from './ping-targets.js';
import { createTargetStore } from './targets.js';

/** The configuration's section for webhook events. */
export type EventsConfig = Pick<Config, 'webhookUrls'>;

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

export function createEventsPart(deps: EventsPartDeps) {
  const { db, clock, logger } = deps;
  const table = createWebhookTargetsTable(db);
  const outbox = createOutboxStore(db, table, deps.events);
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
    /** Start step 1: the stored env targets become SMS_GATEWAY_WEBHOOK_URLS (before settling anything). */
    syncTargets(now: number) {
      outbox.syncTargets(deps.config.webhookUrls, now);
    },
    start() {
      delivery.notify();
    },
    stop: () => delivery.stop(),
  };
}

export type EventsPart = ReturnType<typeof createEventsPart>;
