// composeGateway(deps): THE composition root, used by the start command
// (server/run-gateway.ts), the tests' helper and the bench. It lists the parts in the order
// they are built; each part builds itself from its own section of the configuration and
// subscribes its listeners to the one event path (events/domain-events.ts names every event,
// its emitter and its listeners). Nothing here decides what follows what.
// Building has no side effects. start() does the work a start needs, in this order:
//   1. restore (server/restore.ts): the webhook targets synced, interrupted hand-offs
//      ended (never resent), the pacing seeded from the last minute's hand-offs
//   (the real process listens here, so no request arrives before 1)
//   2. getprop (the phone's time zone), PROBES_AFTER_LISTEN_MS later (in the background; an
//      ask that needs it reads it sooner); every other device fact is read only when asked
//   3. background work: the lane (queued messages waiting from before), pending
//      deliveries, pending confirmations, the inbox watcher (while someone listens), the
//      MQTT bridge (it only begins connecting: a broker that is down holds up nothing)
import { watchClock } from '../core/clock-watch.js';
import { tapWarnings } from '../core/logging.js';
import { createDispatcher, type Dispatcher } from '../core/dispatcher.js';
import { isValidTimeZone } from '../core/time-zone.js';
import type { GatewayEvents } from '../events/domain-events.js';
import { createEventsPart, type EventsPart } from '../events/events-part.js';
import { createInboxPart, type InboxPart } from '../events/inbox-part.js';
import { createSendingPart, type SendingPart } from '../sms/sending-part.js';
import { createSmsStoreShare } from '../sms/sms-store-share.js';
import { createStatusPart, type StatusPart } from '../status/status-part.js';
import { buildApp } from './app.js';
import { portsFor, type GatewayDeps } from './gateway-deps.js';
import { composeMqtt } from './mqtt-part.js';
import { restore } from './restore.js';

/** getprop's first read after the port is bound (ms). */
export const PROBES_AFTER_LISTEN_MS = 1000;

export type { GatewayDeps, Ports } from './gateway-deps.js';

export async function composeGateway(deps: GatewayDeps) {
  const { config, probes, logger } = deps;
  const ports = portsFor(deps);
  const events = createDispatcher<GatewayEvents>({
    onListenerError: (err, name) => logger?.error({ err, event: name }, 'a listener of a gateway event failed'),
  });
  // Every part reads the time through the watch: a wall-clock jump is announced as `clock.jumped`.
  const clock = watchClock(deps.clock, {
    onJump(jump) {
      logger?.warn({ deltaMs: jump.deltaMs }, 'the wall clock jumped: every schedule is looked at again');
      events.emit('clock.jumped', jump);
    },
  });
  const { timings, calendar } = ports;
  // What every part is built from; each takes its own section of the configuration.
  const base = { db: deps.db, clock, runtime: deps.runtime, config, events, logger };

  // One termux-sms-list for the inbox watcher and the sent-box confirmation when their times meet.
  const storeShare = ports.confirmSends ? createSmsStoreShare() : undefined;
  const webhooks = createEventsPart({
    ...base,
    secret: deps.webhookSecret,
    timeoutMs: timings.webhookTimeoutMs,
    random: timings.random,
  });
  const sending = createSendingPart({
    ...base,
    outbox: webhooks.outbox,
    sender: ports.sender,
    calendar,
    simCount: ports.simCount,
    simCountry: () => probes.known().telephony.value?.simCountry ?? null,
    sentBox: storeShare ? { env: deps.env, share: storeShare } : undefined,
  });
  const inbox = createInboxPart({
    ...base,
    outbox: webhooks.outbox,
    timeZone: () => calendar().timeZone,
    // TZ set counts as known; else getprop tells the phone's zone.
    timeZoneKnown: async () => isValidTimeZone(deps.env.TZ?.trim() ?? '') || (await probes.get(['props'])),
    // SMSGate's sms:received registrations listen too.
    registeredTargets: () => webhooks.targets.registeredCount() + webhooks.smsgate.receivedCount(),
    source: ports.inboxList ? { list: ports.inboxList } : { env: deps.env },
    effects: sending.receivedEffects,
    share: storeShare,
  });
  const status = createStatusPart({
    ...base,
    probes,
    sending,
    webhooks,
    inbox,
    apiKey: deps.apiKey,
    calendar,
    interfaces: ports.interfaces,
  });
  tellSmsgateFacts(webhooks, sending, status);
  // Loaded only when configured: MQTT.js costs a gateway without MQTT ~100 ms and ~18 MB at start.
  const mqttSection = { ...base, probes, calendar, timings, gatewayId: ports.mqttGatewayId, sending, status };
  const mqtt = config.mqtt ? await composeMqtt({ ...mqttSection, settings: config.mqtt }) : undefined;
  if (mqtt) status.reportMqtt(() => mqtt.health());
  // The warnings and errors logged from now on are kept for SMSGate's GET /logs.
  if (logger) tapWarnings(logger, (line) => status.logs.line(line));
  // The HTTP part: the routes table (http/routes/index.ts) takes from these handles what each route serves.
  const app = await buildApp({
    ...base,
    apiKey: deps.apiKey,
    calendar,
    sending,
    webhooks,
    inbox,
    status,
    slowReaderClosed: (reason) => status.metrics.onSlowReaderClosed(reason),
  });
  if (config.smtp) (await import('../smtp/smtp-part.js')).attachSmtp({ ...deps, ...base, app, sending, status });

  const parts = { app, sending, webhooks, inbox, status, mqtt, probes, events };
  const restoreState = () => restore({ webhooks, inbox, sending, endLeftover: ports.endLeftover, logger }, clock.now());
  return { ...parts, ...lifecycle(parts, restoreState, () => status.logs.flush()) };
}

/**
 * Start and stop, in order: restore (step 1), listen, getprop's first read (step 2), the
 * background work (step 3); stopping ends MQTT and the requests in flight first.
 */
function lifecycle(parts: Omit<Parts, 'status' | 'events'>, restoreState: () => void, flushLogs: () => void) {
  const { app, sending, webhooks, inbox, mqtt, probes } = parts;
  const startBackground = () => {
    sending.start();
    webhooks.start();
    inbox.start();
    mqtt?.start();
  };
  const stopBackground = async (graceMs?: number) => {
    await Promise.all([sending.stop(graceMs), webhooks.stop(), inbox.stop()]);
    flushLogs();
  };
  return {
    /** Start step 1: the state a start needs before the first request. */
    restore: restoreState,
    startBackground,
    /** Steps 1 to 3 in order; `listen` (the real process binds its port) runs after 1. */
    async start(listen: () => Promise<void> = async () => {}) {
      restoreState();
      await listen();
      probes.start(PROBES_AFTER_LISTEN_MS);
      startBackground();
    },
    /** Background work only (the database stays open); a hand-off in flight gets `graceMs`. */
    stopBackground,
    /** Stops accepting, lets requests in flight (hand-offs included) finish, stops background work. */
    async stop() {
      // MQTT first: no new sends from the broker; `offline` is published.
      await Promise.all([app.close(), mqtt?.stop()]);
      await stopBackground();
    },
  };
}

interface Parts {
  app: Awaited<ReturnType<typeof buildApp>>;
  sending: SendingPart;
  webhooks: EventsPart;
  inbox: InboxPart;
  status: StatusPart;
  mqtt: Awaited<ReturnType<typeof composeMqtt>> | undefined;
  probes: GatewayDeps['probes'];
  events: Dispatcher<GatewayEvents>;
}

export type ComposedGateway = Awaited<ReturnType<typeof composeGateway>>;

/** The events part is told what SMSGate's envelopes carry: the health, this phone's device id, SMSGate's ids. */
function tellSmsgateFacts(webhooks: EventsPart, sending: SendingPart, status: StatusPart) {
  webhooks.reportSmsgate({
    health: status.smsgateHealth,
    deviceId: sending.smsgate.deviceId,
    smsgateIdOf: (messageId) => sending.smsgate.messages.smsgateIdOfMessage(messageId),
  });
}
