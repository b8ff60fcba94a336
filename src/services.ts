// The gateway's working parts, wired once: store, roll-ups, send budget, dispatcher, send
// service, sent-box confirmation and the webhook outbox. At creation it settles messages a
// crash interrupted (failed/interrupted, never resent) and rebuilds the send budget from
// the history, so a restart resets nothing. start() begins the background work (webhook
// delivery, pending confirmations); each part keeps a timer only while it has work.
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { RuntimeInfo } from './runtime.js';
import type { Calendar } from './time-zone.js';
import type { Db } from './store/database.js';
import { createMessageStore, toMessageRecord } from './store/messages.js';
import { createStatsStore } from './store/stats.js';
import { BUDGET_WINDOW_MS, createSendBudget } from './sms/send-budget.js';
import { createDispatcher } from './sms/dispatcher.js';
import { createSendService } from './sms/send.js';
import { createConfirmer } from './sms/confirmation.js';
import type { Sender } from './sms/senders.js';
import { createOutboxStore, createWebhookDelivery } from './webhooks/outbox.js';
import { makeEvent } from './webhooks/events.js';
import { createInboxWatcher } from './webhooks/inbox-watcher.js';

export interface ServicesOptions {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  sender: Sender;
  calendar: () => Calendar;
  defaultSim: number;
  simCount: () => number;
  logger?: Logger | undefined;
  /** Webhook targets (SMS_GATEWAY_WEBHOOK_URLS) and the signing secret. */
  webhookUrls?: string[];
  webhookSecret?: () => string;
  /** Look for handed-off messages in the phone's SMS store (real mode). */
  confirmSends?: boolean;
  /** Environment the device commands run in. */
  deviceEnv?: NodeJS.ProcessEnv | undefined;
  /** Read the phone's inbox for sms.received events this often (only with webhook targets). */
  inboxPollMs?: number;
  /** Overrides for tests (a short delivery timeout, fixed jitter). */
  webhookTimeoutMs?: number;
  random?: () => number;
}

export function createServices(opts: ServicesOptions) {
  const stats = createStatsStore(opts.db);
  const outbox = createOutboxStore(opts.db);
  outbox.syncTargets(opts.webhookUrls ?? []);
  const delivery = createWebhookDelivery({
    store: outbox,
    clock: opts.clock,
    secret: opts.webhookSecret ?? (() => ''),
    userAgent: `sms-gateway/${opts.runtime.version}`,
    logger: opts.logger,
    ...(opts.random ? { random: opts.random } : {}),
    ...(opts.webhookTimeoutMs ? { timeoutMs: opts.webhookTimeoutMs } : {}),
  });
  const messages = createMessageStore(opts.db, stats, {
    // Inside the status change's transaction: the event is stored with it or not at all.
    onSettled(row, at) {
      const event = makeEvent(row.status === 'sent' ? 'sms.sent' : 'sms.failed', { ...toMessageRecord(row) }, at);
      if (outbox.enqueue(event, at)) delivery.notify();
    },
  });
  const interrupted = messages.recoverInterrupted(opts.clock.now());
  if (interrupted.length > 0) {
    opts.logger?.warn(
      { ids: interrupted.map((r) => r.id) },
      'messages interrupted by a stop during hand-off are marked failed (never resent)',
    );
  }
  const budget = createSendBudget(opts.clock);
  const now = opts.clock.now();
  budget.seed(messages.acceptedSince(now - BUDGET_WINDOW_MS).map((m) => ({ ageMs: now - m.createdAt, segments: m.segments })));
  const dispatcher = createDispatcher(opts.sender);
  const confirmer = opts.confirmSends
    ? createConfirmer({ store: messages, clock: opts.clock, timeZone: () => opts.calendar().timeZone, env: opts.deviceEnv, logger: opts.logger })
    : undefined;
  // Received SMS are events, not history: read the inbox only when someone listens.
  const inbox =
    (opts.webhookUrls ?? []).length > 0 && opts.inboxPollMs
      ? createInboxWatcher({
          db: opts.db,
          clock: opts.clock,
          outbox,
          notify: () => delivery.notify(),
          pollMs: opts.inboxPollMs,
          timeZone: () => opts.calendar().timeZone,
          env: opts.deviceEnv,
          logger: opts.logger,
        })
      : undefined;
  const sendService = createSendService({
    store: messages,
    budget,
    dispatcher,
    clock: opts.clock,
    runtime: opts.runtime,
    calendar: opts.calendar,
    defaultSim: opts.defaultSim,
    simCount: opts.simCount,
    logger: opts.logger,
    confirmer,
  });
  return {
    stats,
    messages,
    budget,
    dispatcher,
    sendService,
    confirmer,
    outbox,
    delivery,
    inbox,
    calendar: opts.calendar,
    /** Background work: pending deliveries (from before a restart too) and confirmations. */
    start() {
      delivery.notify();
      confirmer?.start();
      inbox?.start();
    },
    async stop() {
      await Promise.all([delivery.stop(), confirmer?.stop(), inbox?.stop()]);
    },
  };
}

export type Services = ReturnType<typeof createServices>;
