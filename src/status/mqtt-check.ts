// The diagnostics `mqtt` check: off, connected, or not connected (connecting/reconnecting,
// with the last error, its credentials removed, and the next attempt). A broker that is
// down is `degraded`, not `failing`: the HTTP API, the queue and webhooks work without it,
// and MQTT senders' messages wait at the broker (QoS 1) until the gateway is back.
import { check, type CheckOf } from './check.js';
import { isoOrNull as iso } from '../core/clock.js';

export interface MqttHealth {
  state: 'connecting' | 'connected' | 'reconnecting' | 'stopped';
  /** scheme://host:port, never the credentials. */
  broker: string;
  clientId: string;
  since: number | null;
  lastError: string | null;
  lastErrorAt: number | null;
  reconnects: number;
  nextAttemptAt: number | null;
  eventsPublished: number;
  eventsDropped: number;
  /** The filters the broker refused at the last subscribe (its ACLs), or null. */
  subscriptionRefused: string | null;
}

/** A bridge's health before its first connection: nothing tried, nothing counted. */
export function newMqttHealth(broker: string, clientId: string): MqttHealth {
  return {
    state: 'stopped',
    broker,
    clientId,
    since: null,
    lastError: null,
    lastErrorAt: null,
    reconnects: 0,
    nextAttemptAt: null,
    eventsPublished: 0,
    eventsDropped: 0,
    subscriptionRefused: null,
  };
}

export function mqttCheck(health: Readonly<MqttHealth> | null): CheckOf<'mqtt'> {
  if (health === null) return check('ok', { enabled: false });
  const value = {
    enabled: true,
    state: health.state,
    broker: health.broker,
    clientId: health.clientId,
    since: iso(health.since),
    lastError: health.lastError,
    lastErrorAt: iso(health.lastErrorAt),
    reconnects: health.reconnects,
    nextAttemptAt: iso(health.nextAttemptAt),
    eventsPublished: health.eventsPublished,
    eventsDropped: health.eventsDropped,
    subscriptionRefused: health.subscriptionRefused,
  };
  if (health.state === 'connected' && health.subscriptionRefused !== null) {
    return check(
      'degraded',
      value,
      `The broker refused the subscription to ${health.subscriptionRefused}: this phone receives no sends there. Let the gateway's MQTT user subscribe to it in the broker's ACLs (docs/mqtt.md, "How do I lock the broker down (ACLs)?").`,
    );
  }
  if (health.state === 'connected' || health.state === 'stopped') return check('ok', value);
  return check(
    'degraded',
    value,
    `Not connected to the MQTT broker ${health.broker}${health.lastError ? ` (${health.lastError})` : ''}; the gateway keeps retrying with backoff. HTTP sending and webhooks are not affected. Check that the broker runs and that SMS_GATEWAY_MQTT_URL, the user name and the password are right.`,
  );
}
