// The connection to the broker (MQTT.js, MQTT 5): connects in the background (a broker
// that is down never holds up a start), announces `offline` as the retained will, and
// reconnects on its own with exponential backoff (1 s doubling to 60 s, ±20 %; it starts
// over only after a connection held STABLE_MS). Inbound QoS 1 messages go to onMessage
// through MQTT.js's customHandleAcks: the PUBACK leaves only after onMessage has resolved
// (for a send: after the queue commit); when it rejects (the message could not be kept:
// storage, a full queue) no PUBACK is sent and the connection is dropped, so the broker
// gives the message again after the reconnect. QoS 0 messages go to onMessage as they come
// (nothing to acknowledge). Packets over MAX_PACKET_BYTES are never delivered. The session
// outlives the connection by SESSION_EXPIRY_S: a gateway back within that time (a restart,
// a Wi-Fi gap) is given again what it had not acknowledged. publish() never
// waits and never queues while disconnected: retained state is published again on every
// connect, and events are best effort here (webhooks are the durable path).
import mqtt, { type IClientOptions, type MqttClient } from 'mqtt';
import type { Logger } from 'pino';
import type { Clock, Timer } from '../core/clock.js';
import { newMqttHealth, type MqttHealth } from '../status/mqtt-check.js';
import { createBridgeIo, redactError } from './bridge-io.js';

export { redactError } from './bridge-io.js';

export interface BridgeDeps {
  url: string;
  username: string | undefined;
  password: string | undefined;
  clientId: string;
  will: { topic: string; payload: string };
  /** After each (re)connect: publish what is retained, then subscribe. */
  onConnect: (bridge: Bridge) => void;
  /**
   * An inbound message (`retained`: it carries the retain flag); a QoS 1 PUBACK waits for the promise, and is not sent
   * when it rejects.
   */
  onMessage: (topic: string, payload: Buffer, retained: boolean) => Promise<void>;
  clock: Clock;
  logger?: Logger | undefined;
  /** Delay before reconnect attempt n (1-based); tests pass a short one. */
  backoffMs?: (attempt: number) => number;
}

export const MAX_BACKOFF_MS = 60_000;
/** A connection that held this long starts the backoff over (a connect-then-drop loop does not). */
export const STABLE_MS = 30_000;
/** The largest packet the broker may deliver (a send is 16 KB at most): memory stays bounded. */
export const MAX_PACKET_BYTES = 64 * 1024;
/** How long the broker keeps the session (subscriptions, unacknowledged sends) after a drop. */
export const SESSION_EXPIRY_S = 600;

export function reconnectDelayMs(attempt: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.max(0, attempt - 1));
  return Math.round(base * (0.8 + 0.4 * random()));
}

/** MQTT.js's options: MQTT 5, a kept session, our own backoff, the will, acks after onMessage. */
function connectOptions(deps: BridgeDeps, dropConnection: () => void): IClientOptions {
  return {
    protocolVersion: 5,
    clientId: deps.clientId,
    clean: false,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_S, maximumPacketSize: MAX_PACKET_BYTES },
    reconnectPeriod: 0, // our own backoff (scheduleReconnect)
    connectTimeout: 10_000,
    keepalive: 30,
    resubscribe: false, // onConnect subscribes on every connect
    queueQoSZero: false,
    will: { topic: deps.will.topic, payload: Buffer.from(deps.will.payload), qos: 1, retain: true },
    customHandleAcks: (topic, message, packet: { retain?: boolean }, done) => {
      deps.onMessage(topic, message, packet.retain === true).then(
        () => done(0),
        () => {
          deps.logger?.warn({ topic }, 'mqtt message not kept; reconnecting so the broker gives it again');
          dropConnection();
        },
      );
    },
    ...(deps.username !== undefined ? { username: deps.username } : {}),
    ...(deps.password !== undefined ? { password: deps.password } : {}),
  };
}

/** The connection and its state, shared by the client's event handlers and the bridge's handle. */
interface Connection {
  deps: BridgeDeps;
  health: MqttHealth;
  secrets: (string | undefined)[];
  backoff: (attempt: number) => number;
  client: MqttClient | undefined;
  timer: Timer | undefined;
  attempt: number;
  connectedAt: number | undefined;
  erroredSinceConnect: boolean;
  stopped: boolean;
}

function setState(conn: Connection, state: MqttHealth['state']) {
  if (conn.health.state !== state) {
    conn.health.state = state;
    conn.health.since = conn.deps.clock.now();
  }
}

function scheduleReconnect(conn: Connection) {
  if (conn.stopped || conn.timer || !conn.client) return;
  conn.attempt += 1;
  const delay = conn.backoff(conn.attempt);
  setState(conn, 'reconnecting');
  conn.health.nextAttemptAt = conn.deps.clock.now() + delay;
  conn.timer = conn.deps.clock.setTimer(() => {
    conn.timer = undefined;
    conn.health.nextAttemptAt = null;
    conn.health.reconnects += 1;
    conn.client?.reconnect();
  }, delay);
}

/** The client's events: its messages, connected, an error, closed (then a reconnect, with the backoff). */
function watchClient(conn: Connection, client: MqttClient, onConnected: () => void) {
  const { deps, health } = conn;
  client.on('message', (topic, payload, packet) => {
    if (packet.qos === 0) deps.onMessage(topic, payload, packet.retain).catch(() => undefined);
  });
  client.on('connect', () => {
    conn.connectedAt = deps.clock.monotonicMs();
    conn.erroredSinceConnect = false;
    // A new connection starts with nothing refused (the broker's ACLs may have changed): what is
    // still refused is refused again as onConnect publishes and subscribes (mqtt/refusals.ts).
    health.refused = [];
    health.subscriptionRefused = null;
    setState(conn, 'connected');
    deps.logger?.info({ broker: health.broker }, 'mqtt connected');
    onConnected();
  });
  client.on('error', (err) => {
    conn.erroredSinceConnect = true;
    health.lastError = redactError(err.message, conn.secrets);
    health.lastErrorAt = deps.clock.now();
  });
  client.on('close', () => {
    if (conn.stopped) return;
    if (conn.connectedAt !== undefined && deps.clock.monotonicMs() - conn.connectedAt >= STABLE_MS) conn.attempt = 0;
    conn.connectedAt = undefined;
    if (!conn.erroredSinceConnect && health.state === 'connected') {
      health.lastError = 'the connection was closed (broker stopped or network lost)';
      health.lastErrorAt = deps.clock.now();
    }
    if (health.state === 'connected')
      deps.logger?.warn({ broker: health.broker, lastError: health.lastError }, 'mqtt connection lost; reconnecting');
    scheduleReconnect(conn);
  });
}

/** Publishes `offline` (retained; 2 s at most) when connected, then ends the connection at once. */
async function endClient(c: MqttClient, will: BridgeDeps['will']): Promise<void> {
  if (c.connected) {
    await new Promise<void>((resolve) => {
      const done = setTimeout(resolve, 2000);
      c.publish(will.topic, will.payload, { qos: 1, retain: true }, () => {
        clearTimeout(done);
        resolve();
      });
    });
  }
  // Forced: a broker that never acknowledges must not hold up the stop (the will says offline anyway).
  await new Promise<void>((resolve) => c.end(true, {}, () => resolve()));
}

export function createBridge(deps: BridgeDeps) {
  const url = new URL(deps.url);
  const conn: Connection = {
    deps,
    health: newMqttHealth(`${url.protocol}//${url.host}`, deps.clientId),
    secrets: [deps.password, decodeURIComponent(url.password) || undefined],
    backoff: deps.backoffMs ?? ((n: number) => reconnectDelayMs(n)),
    client: undefined,
    timer: undefined,
    attempt: 0,
    connectedAt: undefined,
    erroredSinceConnect: false,
    stopped: false,
  };

  const bridge = {
    health: (): Readonly<MqttHealth> => conn.health,
    connected: () => conn.client?.connected === true,
    ...createBridgeIo(() => conn.client, conn.health, deps, conn.secrets),
    /** Starts connecting in the background; returns at once. */
    start() {
      if (conn.client || conn.stopped) return;
      // A message not kept is never acknowledged: the connection is dropped and a new one makes
      // the broker give it again (MQTT.js reads nothing more on this one until the ack anyway).
      const options = connectOptions(deps, () => conn.client?.stream.destroy());
      setState(conn, 'connecting');
      conn.client = mqtt.connect(deps.url, options);
      watchClient(conn, conn.client, () => deps.onConnect(bridge));
    },
    /** Publishes `offline` (retained) and disconnects cleanly; never waits on a dead broker. */
    async stop() {
      conn.stopped = true;
      conn.timer?.cancel();
      conn.timer = undefined;
      const c = conn.client;
      if (!c) return;
      setState(conn, 'stopped');
      await endClient(c, deps.will);
    },
  };
  return bridge;
}

export type Bridge = ReturnType<typeof createBridge>;
