// The MQTT side of a gateway, assembled from its parts (bridge, send intake, event
// publisher, discovery, state, the received topic, the shared opt-out list) for
// server/mqtt-part.ts. It listens to `message.settled` and `sms.received` (published as
// events, the sensors' state, and `<prefix>/<id>/received`). start() only begins connecting;
// on every connect it publishes `online` (retained), the discovery configs, the state,
// then subscribes (QoS 1) to `<prefix>/<id>/send`, `$share/<prefix>/<prefix>/send` and the
// contacts' notify topics (the shared one only while sending is on), and to
// `<prefix>/opt-outs/+` with its retained messages. stop() leaves the shared subscription,
// publishes `offline` and disconnects.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { MqttSettings } from '../core/mqtt-settings.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { Subscriber } from '../core/dispatcher.js';
import type { WebhookEvent } from '../store/event-record.js';
import type { OptOutList } from '../sms/opt-out-list.js';
import type { OptOutEvents } from '../store/opt-outs.js';
import type { OutboxEvents } from '../store/outbox.js';
import type { StatsStore } from '../store/stats.js';
import { createBridge, type Bridge } from './bridge.js';
import { announce, discoveryConfigs } from './discovery.js';
import { createEventPublisher } from './event-publisher.js';
import { createOptOutSharing, type OptOutSharing } from './opt-out-sharing.js';
import { receivedPayload } from './received.js';
import { createSendIntake, type IntakeDeps, type SendIntake } from './send-intake.js';
import { createStatePublisher, type StateDeps, type StatePublisher } from './state.js';
import { topicsFor, type Topics } from './topics.js';

export interface MqttGatewayDeps {
  settings: MqttSettings;
  gatewayId: string;
  home: string;
  version: string;
  enqueue: IntakeDeps['enqueue'];
  probes: Pick<Probes, 'shown' | 'onRead'>;
  stats: Pick<StatsStore, 'day'>;
  calendar: () => Calendar;
  clock: Clock;
  /** SMS_GATEWAY_SMS_ENABLED: only a phone that sends takes a share of the shared topic. */
  smsEnabled: boolean;
  waiting: () => number;
  diagnostics: StateDeps['diagnostics'];
  events: Subscriber<Pick<OutboxEvents, 'message.settled' | 'sms.received'> & OptOutEvents>;
  /** The opt-out list, shared with the other gateways of the prefix (its own changes: `opt-out.changed`). */
  optOuts: Pick<OptOutList, 'applyShared' | 'get' | 'unshared' | 'markShared'>;
  /** SMS_GATEWAY_OPT_OUT: STOP and START are then `opt_out` / `opt_in` on the received topic. */
  optOutEnabled: boolean;
  logger?: Logger | undefined;
  /** Tests: a short reconnect delay and a state interval of their own. */
  backoffMs?: (attempt: number) => number;
  stateIntervalMs?: number;
}

type Publish = (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;

/**
 * On every connect: `online` (retained), the discovery configs, the state, then the
 * subscriptions. With sending switched off this phone takes no share of the shared topic:
 * every message there would be refused here instead of sent by another phone.
 */
function onConnect(
  deps: MqttGatewayDeps,
  topics: Topics,
  b: Bridge,
  publish: Publish,
  state: StatePublisher,
  sharing: OptOutSharing,
) {
  const { settings, logger } = deps;
  b.publish(topics.availability, 'online', { qos: 1, retain: true });
  const configs = settings.discovery
    ? discoveryConfigs({ gatewayId: deps.gatewayId, topics, contacts: settings.contacts, version: deps.version })
    : [];
  try {
    announce(publish, deps.home, configs);
  } catch (err) {
    logger?.warn({ err: (err as Error).message }, 'cannot keep the list of Home Assistant configs');
  }
  state.onConnect();
  const shared = deps.smsEnabled ? [topics.sharedFilter] : [];
  const notify = settings.contacts.length > 0 ? [topics.notifyFilter] : [];
  b.subscribe([topics.send, ...shared, ...notify], [topics.optOutsFilter]);
  sharing.onConnect();
}

/**
 * An inbound message: the send topics go to the intake; anything else came through
 * `<prefix>/opt-outs/+` (sharing ignores what is not a number's topic: say, the topics of a
 * gateway whose id is `opt-outs`).
 */
async function route(
  topics: Topics,
  intake: SendIntake,
  sharing: OptOutSharing,
  topic: string,
  payload: Buffer,
  retained: boolean,
) {
  if (topic === topics.send || topic === topics.sharedSend || topics.notifySlug(topic) !== undefined)
    await intake.handle(topic, payload, retained);
  else sharing.handle(topic, payload);
}

/** The opt-out list shared with the prefix's gateways: this gateway's changes published, the others' applied. */
function shareOptOuts(deps: MqttGatewayDeps, topics: Topics, publish: Publish): OptOutSharing {
  const { optOuts: list, clock, logger } = deps;
  const sharing = createOptOutSharing({ list, topics, publish, clock, secret: deps.settings.shareSecret, logger });
  deps.events.on('opt-out.changed', (change) => sharing.shareChange(change));
  return sharing;
}

export function createMqttGateway(deps: MqttGatewayDeps) {
  const { settings, logger } = deps;
  const topics = topicsFor(settings.prefix, deps.gatewayId);
  // The bridge is made last (its connect handler publishes through the parts below).
  const made: { bridge?: Bridge } = {};
  let stopped = false;
  const publish: Publish = (topic, payload, opts) => made.bridge?.publish(topic, payload, opts) ?? false;

  const state = createStatePublisher({
    publish,
    topics,
    probes: deps.probes,
    stats: deps.stats,
    calendar: deps.calendar,
    clock: deps.clock,
    waiting: deps.waiting,
    diagnostics: deps.diagnostics,
    ...(deps.stateIntervalMs ? { intervalMs: deps.stateIntervalMs } : {}),
  });
  const intake = createSendIntake({
    enqueue: deps.enqueue,
    topics,
    contacts: settings.contacts,
    publish,
    onQueued: () => state.publishState(),
    logger,
  });
  const sharing = shareOptOuts(deps, topics, publish);
  const bridge = createBridge({
    url: settings.url,
    username: settings.username,
    password: settings.password,
    clientId: `sms-gateway-${deps.gatewayId}`,
    will: { topic: topics.availability, payload: 'offline' },
    clock: deps.clock,
    logger,
    ...(deps.backoffMs ? { backoffMs: deps.backoffMs } : {}),
    onMessage: (topic, payload, retained) => route(topics, intake, sharing, topic, payload, retained),
    onConnect: (b) => onConnect(deps, topics, b, publish, state, sharing),
  });
  made.bridge = bridge;
  const publishEvent = createEventPublisher({ publish, topics, health: () => bridge.health() });

  const received = { contacts: settings.contacts, optOutEnabled: deps.optOutEnabled };
  /** Every settled message and received SMS, after its commit. */
  const onEvent = (event: WebhookEvent) => {
    if (stopped) return;
    try {
      publishEvent(event);
      if (event.type === 'sms.received')
        publish(topics.received, JSON.stringify(receivedPayload(received, event)), { qos: 1, retain: false });
      state.onEvent(event);
    } catch (err) {
      logger?.warn({ err: (err as Error).message, type: event.type }, 'mqtt: event not published');
    }
  };
  deps.events.on('message.settled', onEvent);
  deps.events.on('sms.received', onEvent);

  return {
    topics,
    bridge,
    health: () => bridge.health(),
    /** Begins connecting in the background; never waits for the broker. */
    start() {
      bridge.start();
      state.start();
    },
    /**
     * Leaves the shared subscription first, so the broker gives that topic's messages to the other phones while this
     * one is away.
     */
    async stop() {
      stopped = true;
      state.stop();
      await bridge.unsubscribe([topics.sharedFilter]);
      await bridge.stop();
    },
  };
}

export type MqttGateway = ReturnType<typeof createMqttGateway>;
