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

export interface BridgeDeps {
  url: string;
  username: string | undefined;
  password: string | undefined;
  clientId: string;
  will: { topic: string; payload: string };
  /** After each (re)connect: publish what is retained, then subscribe. */
  onConnect: (bridge: Bridge) => void;
  /** An inbound message (`retained`: it carries the retain flag); a QoS 1 PUBACK waits for the promise, and is not sent when it rejects. */
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

/** An error's message without the URL's credentials or the password. */
export function redactError(message: string, secrets: (string | undefined)[]): string {
  let out = message.replace(/(mqtts?:\/\/)[^@\s/]*@/gi, '$1');
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out.slice(0, 300);
}

/** Publish, subscribe and unsubscribe on the current connection (none: nothing is queued). */
function createBridgeIo(current: () => MqttClient | undefined, health: MqttHealth, deps: BridgeDeps, secrets: (string | undefined)[]) {
  return {
    /** Publishes now if connected; false (nothing queued) when not. */
    publish(topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }): boolean {
      const client = current();
      if (!client?.connected) return false;
      client.publish(topic, payload, { qos: opts.qos, retain: opts.retain }, (err) => {
        if (err) deps.logger?.debug({ topic, err: redactError(err.message, secrets) }, 'mqtt publish not acknowledged');
      });
      return true;
    },
    subscribe(filters: string[]) {
      // rh 2: the broker never gives a retained message at subscribe (it would be sent again at
      // every connect); rap: a retained publish keeps its flag, so onMessage can refuse it.
      current()?.subscribe(filters, { qos: 1, rh: 2, rap: true }, (err) => {
        health.subscriptionRefused = null;
        if (!err) return;
        // MQTT.js reports a SUBACK refusal (an ACL) as an error too.
        health.subscriptionRefused = filters.join(', ');
        health.lastError = `the broker refused a subscription (${filters.join(', ')}): ${redactError(err.message, secrets)}; check its ACLs`;
        health.lastErrorAt = deps.clock.now();
        deps.logger?.warn({ filters, err: redactError(err.message, secrets) }, 'mqtt subscribe failed (check the broker ACLs)');
      });
    },
    /** Waits (at most timeoutMs) for the broker to confirm the unsubscription. */
    unsubscribe(filters: string[], timeoutMs = 2000): Promise<void> {
      const c = current();
      if (!c?.connected) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        c.unsubscribe(filters, () => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}

/** MQTT.js's options: MQTT 5, a kept session, our own backoff, the will, acks after onMessage. */
function connectOptions(deps: BridgeDeps, dropConnection: () => void): IClientOptions {
  return {
    protocolVersion: 5,
    clientId: deps.clientId,
    clean: false,
    properties: { sessionExpiryInterval: SESSION_EXPIRY_S, maximumPacketSize: MAX_PACKET_BYTES },
    reconnectPeriod: 0, // our own backoff (createBridge's scheduleReconnect)
    connectTimeout: 10_000,
    keepalive: 30,
    resubscribe: false, // onConnect subscribes on every connect
    queueQoSZero: false,
    will: { topic: deps.will.topic, payload: Buffer.from(deps.will.payload), qos: 1, retain: true },
    customHandleAcks: (topic, message, packet, done) => {
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

export function createBridge(deps: BridgeDeps) {
  const backoff = deps.backoffMs ?? ((n: number) => reconnectDelayMs(n));
  const url = new URL(deps.url);
  const secrets = [deps.password, decodeURIComponent(url.password) || undefined];
  const health = newMqttHealth(`${url.protocol}//${url.host}`, deps.clientId);
  let client: MqttClient | undefined;
  let timer: Timer | undefined;
  let attempt = 0;
  let connectedAt: number | undefined;
  let erroredSinceConnect = false;
  let stopped = false;

  const set = (state: MqttHealth['state']) => {
    if (health.state !== state) {
      health.state = state;
      health.since = deps.clock.now();
    }
  };

  const scheduleReconnect = () => {
    if (stopped || timer || !client) return;
    attempt += 1;
    const delay = backoff(attempt);
    set('reconnecting');
    health.nextAttemptAt = deps.clock.now() + delay;
    timer = deps.clock.setTimer(() => {
      timer = undefined;
      health.nextAttemptAt = null;
      health.reconnects += 1;
      client?.reconnect();
    }, delay);
  };

  const bridge = {
    health: (): Readonly<MqttHealth> => health,
    connected: () => client?.connected === true,
    ...createBridgeIo(() => client, health, deps, secrets),
    /** Starts connecting in the background; returns at once. */
    start() {
      if (client || stopped) return;
      // A message not kept is never acknowledged: the connection is dropped and a new one makes
      // the broker give it again (MQTT.js reads nothing more on this one until the ack anyway).
      const options = connectOptions(deps, () => client?.stream.destroy());
      set('connecting');
      client = mqtt.connect(deps.url, options);
      client.on('message', (topic, payload, packet) => {
        if (packet.qos === 0) deps.onMessage(topic, payload, packet.retain).catch(() => undefined);
      });
      client.on('connect', () => {
        connectedAt = deps.clock.monotonicMs();
        erroredSinceConnect = false;
        set('connected');
        deps.logger?.info({ broker: health.broker }, 'mqtt connected');
        deps.onConnect(bridge);
      });
      client.on('error', (err) => {
        erroredSinceConnect = true;
        health.lastError = redactError(err.message, secrets);
        health.lastErrorAt = deps.clock.now();
      });
      client.on('close', () => {
        if (stopped) return;
        if (connectedAt !== undefined && deps.clock.monotonicMs() - connectedAt >= STABLE_MS) attempt = 0;
        connectedAt = undefined;
        if (!erroredSinceConnect && health.state === 'connected') {
          health.lastError = 'the connection was closed (broker stopped or network lost)';
          health.lastErrorAt = deps.clock.now();
        }
        if (health.state === 'connected') deps.logger?.warn({ broker: health.broker, lastError: health.lastError }, 'mqtt connection lost; reconnecting');
        scheduleReconnect();
      });
    },
    /** Publishes `offline` (retained) and disconnects cleanly; never waits on a dead broker. */
    async stop() {
      stopped = true;
      timer?.cancel();
      timer = undefined;
      const c = client;
      if (!c) return;
      set('stopped');
      if (c.connected) {
        await new Promise<void>((resolve) => {
          const done = setTimeout(resolve, 2000);
          c.publish(deps.will.topic, deps.will.payload, { qos: 1, retain: true }, () => {
            clearTimeout(done);
            resolve();
          });
        });
      }
      // Forced: a broker that never acknowledges must not hold up the stop (the will says offline anyway).
      await new Promise<void>((resolve) => c.end(true, {}, () => resolve()));
    },
  };
  return bridge;
}

export type Bridge = ReturnType<typeof createBridge>;
