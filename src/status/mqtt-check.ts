// The diagnostics `mqtt` check: off, connected, or not connected (connecting/reconnecting,
// with the last error, its credentials removed, and the next attempt). A broker that is
// down is `degraded`, not `failing`: the HTTP API, the queue and webhooks work without it,
// and MQTT senders' messages wait at the broker (QoS 1) until the gateway is back. A broker
// that is up but refuses a publish or a subscription (its ACLs: mqtt/refusals.ts) is
// `failing`: it will not heal by waiting, and what the gateway says or hears there is lost.
import { check, type CheckOf } from './check.js';
import { isoOrNull as iso } from '../core/clock.js';

/** A publish or subscription the broker refused (a failure reason code), still standing. */
export interface MqttRefusal {
  operation: 'publish' | 'subscribe';
  /** The topic (publish) or topic filter (subscribe). */
  topic: string;
  reasonCode: number;
  /** The code and its name: `135 Not authorized`. */
  reason: string;
  at: number;
}

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
  /** Refusals that stand (newest last; the topic accepted since clears one). */
  refused: MqttRefusal[];
  /** Refusals since the start by `<operation> <reason label>` (GET /metrics). */
  refusalCounts: Record<string, number>;
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
    refused: [],
    refusalCounts: {},
  };
}

/** What diagnostics says of the refusals that stand: the newest, and how many more. */
function refusedHint(refused: readonly MqttRefusal[]): string {
  const r = refused.at(-1)!;
  const more = refused.length > 1 ? ` (and ${refused.length - 1} more refusal${refused.length > 2 ? 's' : ''})` : '';
  const what = r.operation === 'publish' ? `publish to ${r.topic}` : `subscribe to ${r.topic}`;
  return (
    `The MQTT broker refused to let the gateway ${what}: ${r.reason}${more}. ` +
    "Let the gateway's MQTT user publish and subscribe under its prefix in the broker's ACLs " +
    '(docs/mqtt.md, "How do I lock the broker down (ACLs)?").'
  );
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
    refused: health.refused.map((r) => ({ ...r, at: new Date(r.at).toISOString() })),
  };
  if (health.state === 'connected' && health.refused.length > 0) {
    return check('failing', value, refusedHint(health.refused));
  }
  if (health.state === 'connected' || health.state === 'stopped') return check('ok', value);
  return check(
    'degraded',
    value,
    `Not connected to the MQTT broker ` +
      `${health.broker}${health.lastError ? ` (${health.lastError})` : ''}; the gateway keeps retrying with ` +
      `backoff. HTTP sending and webhooks are not affected. Check that the broker runs and that ` +
      `SMS_GATEWAY_MQTT_URL, the user name and the password are right.`,
  );
}
