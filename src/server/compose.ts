// composeGateway(deps): THE composition root. Every part of the gateway (stores, pacing,
// the hand-off lane, send and queue services, sent-box confirmation, webhook outbox and delivery,
// inbox watcher, host info, diagnostics, the Fastify app) is wired here and nowhere else;
// the start command (server/run-gateway.ts, through server/compose-from-config.ts), the tests' helper and the bench all call it.
// Building has no side effects. start() does the work a start needs, in this order:
//   1. sync the webhook targets with SMS_GATEWAY_WEBHOOK_URLS (before 2: the events of
//      the messages settled there go to today's targets)
//   2. messages a crash interrupted during their hand-off: end what is left of the hand-off's
//      process group (same boot only), then, in real mode, look for them in the phone's sent
//      box (src/sms/confirmation.ts); otherwise failed/interrupted. Never resent.
//   3. seed the pacing from the hand-offs of the last minute (a restart resets nothing)
//   (the real process listens here, so no request arrives before 1-3)
//   then the first round of device probes, PROBES_AFTER_LISTEN_MS later (in the background;
//      a request that needs the facts starts it sooner), so the first answers never wait
//      for its spawns
//   4. background work: the lane (queued messages waiting from before), pending
//      deliveries, pending confirmations, the inbox watcher (while someone listens:
//      inboxWanted; registering or removing a webhook target over the API re-decides),
//      the MQTT bridge (it only begins connecting: a broker that is down holds up nothing)
import type { FastifyInstance } from 'fastify';
import { killLeftover } from '../device/kill-leftover.js';
import { recoverHandoffs } from './recover-handoffs.js';
import { createMessageStore } from '../store/messages.js';
import { createStatsStore } from '../store/stats.js';
import { createQueueStore } from '../store/queue.js';
import { createOutboxStore } from '../store/outbox.js';
import { createWebhookTargetsTable } from '../store/webhook-targets.js';
import { BUDGET_WINDOW_MS, createPacing } from '../sms/pacing.js';
import { createLane } from '../sms/lane.js';
import { createSettler } from '../sms/settle.js';
import { createSendService } from '../sms/send.js';
import { createEnqueue } from '../sms/enqueue.js';
import { createConfirmer } from '../sms/confirmation.js';
import { createWebhookDelivery } from '../events/delivery.js';
import { createHostInfo } from '../status/host-info.js';
import { createDiagnostics } from '../status/diagnostics.js';
import { createMetrics, type Metrics } from '../status/metrics.js';
import type { WebhookEvent } from '../events/events.js';
import type { MqttGateway } from '../mqtt/mqtt-gateway.js';
import { buildApp } from './app.js';
import { composeInbox } from './compose-inbox.js';
import type { ComposeDeps, MqttOptions } from './compose-deps.js';

/** The first probe round after the port is bound (ms). */
export const PROBES_AFTER_LISTEN_MS = 1000;

export type { ComposeDeps, MqttOptions };

/** The send, store and event parts (what routes, status and tests reach into). */
function composeServices(deps: ComposeDeps, onEvent: (event: WebhookEvent) => void, metrics: Pick<Metrics, 'onHandoff'>) {
  const { db, clock, logger } = deps;
  const stats = createStatsStore(db);
  const webhookTargets = createWebhookTargetsTable(db);
  const outbox = createOutboxStore(db, webhookTargets, {
    onCommitted(event, queued) {
      if (queued) delivery.notify();
      onEvent(event);
    },
  });
  const userAgent = `sms-gateway/${deps.runtime.version}`;
  const delivery = createWebhookDelivery({
    store: outbox,
    clock,
    secret: deps.webhookSecret ?? (() => ''),
    userAgent,
    logger,
    ...(deps.random ? { random: deps.random } : {}),
    ...(deps.webhookTimeoutMs ? { timeoutMs: deps.webhookTimeoutMs } : {}),
  });
  const messages = createMessageStore(db, stats, { outbox });
  const queue = createQueueStore(db, messages);
  const pacing = createPacing(clock, deps.queueRate ?? 30);
  const timeZone = () => deps.calendar().timeZone;
  const confirmer = deps.confirmSends
    ? createConfirmer({ store: messages, clock, timeZone, env: deps.deviceEnv, logger })
    : undefined;
  const settler = createSettler({ store: messages, clock, runtime: deps.runtime, confirmer, logger });
  const lane = createLane({
    store: messages,
    queue,
    pacing,
    sender: deps.sender,
    clock,
    timeZone,
    quietHours: deps.quietHours,
    settle: (h) => {
      metrics.onHandoff(h);
      settler.settle(h);
    },
    logger,
  });
  const received = composeInbox({ ...deps, outbox, webhookTargets, userAgent, timeZone });
  const sims = { defaultSim: deps.defaultSim, simCount: deps.simCount };
  const common = { clock, runtime: deps.runtime, calendar: deps.calendar, logger, ...sims };
  const sendService = createSendService({ ...common, store: messages, lane, pacing, settler });
  const enqueue = createEnqueue({ ...common, store: messages, queue, lane, settler });
  return {
    stats,
    messages,
    queue,
    pacing,
    lane,
    settler,
    sendService,
    enqueue,
    confirmer,
    outbox,
    delivery,
    ...received,
    calendar: deps.calendar,
    /** Stops the background work (step 4); the database stays open. */
    async stop(graceMs?: number) {
      await Promise.all([lane.stop(graceMs), delivery.stop(), confirmer?.stop(), received.stopInbox()]);
      settler.flush(); // a last try for outcomes the disk refused
      settler.stop();
    },
  };
}

export type Services = ReturnType<typeof composeServices>;

/** What GET /api/device and /api/diagnostics tell: host info and diagnostics. */
function composeStatus(deps: ComposeDeps, services: Services, mqtt: () => MqttGateway | undefined) {
  const { clock, runtime, probes } = deps;
  return {
    hostInfo: createHostInfo({
      clock,
      runtime,
      probes,
      calendar: deps.calendar,
      stats: services.stats,
      messages: services.messages,
      phoneNumber: deps.phoneNumber,
      defaultSim: deps.defaultSim,
      ...(deps.interfaces ? { interfaces: deps.interfaces } : {}),
    }),
    diagnostics: createDiagnostics({
      clock,
      runtime,
      probes,
      db: deps.db,
      home: deps.home,
      apiKey: deps.apiKey,
      sendHealth: () => services.settler.health(),
      historySize: () => services.messages.count(),
      budgetUsage: () => services.pacing.usage(),
      queueState: () => services.lane.state(),
      queueRate: deps.queueRate ?? 30,
      quietHours: deps.quietHours?.text ?? null,
      webhookTargets: () => services.outbox.status(),
      inboxHealth: () => (services.inboxEnabled() ? services.inbox.health() : null),
      mqttHealth: () => mqtt()?.health() ?? null,
    }),
  };
}

type Status = ReturnType<typeof composeStatus>;

/** The MQTT bridge (SMS_GATEWAY_MQTT_URL), built, not started. */
async function composeMqtt(deps: ComposeDeps, options: MqttOptions, services: Services, diagnostics: () => ReturnType<Status['diagnostics']>) {
  const { clock, runtime, probes } = deps;
  // Loaded only when configured: MQTT.js costs a gateway without MQTT ~100 ms and ~18 MB at start.
  const { createMqttGateway } = await import('../mqtt/mqtt-gateway.js');
  return createMqttGateway({
    settings: options.settings,
    gatewayId: options.gatewayId,
    home: deps.home,
    version: runtime.version,
    enqueue: services.enqueue,
    probes,
    stats: services.stats,
    calendar: deps.calendar,
    clock,
    smsEnabled: runtime.smsEnabled,
    waiting: () => services.lane.state().waiting,
    diagnostics,
    logger: deps.logger,
    ...(options.backoffMs ? { backoffMs: options.backoffMs } : {}),
    ...(options.stateIntervalMs ? { stateIntervalMs: options.stateIntervalMs } : {}),
  });
}

export async function composeGateway(deps: ComposeDeps) {
  const { clock, runtime, probes } = deps;
  let mqtt: MqttGateway | undefined;
  // Read at each scrape through these closures (services exist by then); fed by the lane and the outbox's listener.
  const metrics = createMetrics({
    clock,
    runtime,
    totals: () => services.stats.allTime(),
    queueState: () => services.lane.state(),
    webhookTargets: () => services.outbox.status(),
    device: () => probes.peek(),
  });
  // The bridge hears of committed events through the outbox's listener; events know nothing of MQTT.
  const services = composeServices(
    deps,
    (event) => {
      metrics.onEvent(event);
      mqtt?.onEvent(event);
    },
    metrics,
  );
  const status = composeStatus(deps, services, () => mqtt);
  if (deps.mqtt) mqtt = await composeMqtt(deps, deps.mqtt, services, () => status.diagnostics());
  const app: FastifyInstance = await buildApp({
    clock,
    runtime,
    apiKey: () => deps.apiKey.current(),
    rotateKey: () => deps.apiKey.rotate(),
    sendService: services.sendService,
    enqueue: services.enqueue,
    messages: services.messages,
    stats: services.stats,
    calendar: deps.calendar,
    status,
    inbox: { store: services.inboxStore, enabled: services.inboxEnabled },
    webhooks: { targets: services.targets, tester: services.tester, clock, logger: deps.logger, changed: services.switchInbox },
    scrapeMetrics: metrics.scrape,
    logger: deps.logger,
  });

  /** Steps 1 to 3: the state a start needs before the first request. */
  const restore = () => {
    const now = clock.now();
    services.outbox.syncTargets(deps.webhookUrls ?? [], now);
    // A watcher that is off forgets where it was: when it starts, it starts afresh.
    if (!services.inboxEnabled()) services.inbox.forget();
    recoverHandoffs(
      {
        messages: services.messages,
        confirmer: services.confirmer,
        endLeftover: deps.endLeftover ?? ((g) => killLeftover(g, { bootId: deps.bootId ?? null })),
        logger: deps.logger,
      },
      now,
    );
    services.pacing.seed(
      services.messages
        .handoffsSince(now - BUDGET_WINDOW_MS)
        .map((h) => ({ ageMs: now - h.at, segments: h.segments, queued: h.via === 'queue' })),
    );
  };

  /** Step 4: background work; each part keeps a timer only while it has work. */
  const startBackground = () => {
    services.lane.notify();
    services.delivery.notify();
    services.confirmer?.start();
    services.startInbox();
    mqtt?.start();
  };

  return {
    app,
    services,
    status,
    metrics,
    probes,
    mqtt,
    restore,
    startBackground,
    /** Steps 1 to 4 in order; `listen` (the real process binds its port) runs between 3 and 4. */
    async start(listen: () => Promise<void> = async () => {}) {
      restore();
      await listen();
      probes.start(PROBES_AFTER_LISTEN_MS);
      startBackground();
    },
    /** Stops accepting, lets requests in flight (hand-offs included) finish, stops background work. */
    async stop() {
      // MQTT first: no new sends from the broker; `offline` is published.
      await Promise.all([app.close(), mqtt?.stop()]);
      await services.stop();
    },
  };
}

export type ComposedGateway = Awaited<ReturnType<typeof composeGateway>>;
