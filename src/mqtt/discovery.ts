// Home Assistant MQTT discovery: one device per gateway, its sensors (battery, Wi-Fi signal,
// sent today, failed today, waiting in the queue, overall diagnostics status, last received
// SMS with sender and body as attributes), the "Received SMS" event entity (one event per
// received SMS, received.ts) and one `notify` entity per contact, as retained
// configs under `homeassistant/`. The config topics published are kept in
// $SMS_GATEWAY_HOME/mqtt-discovery.json, so a contact removed from SMS_GATEWAY_MQTT_CONTACTS
// (or discovery switched off) gets an empty retained config: Home Assistant removes it.
// Nothing here carries the API key.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import type { Contact } from '../core/mqtt-settings.js';
import { writeFileAtomic } from '../core/fs-util.js';
import { RECEIVED_EVENT_TYPES } from './received.js';
import type { Topics } from './topics.js';

export const DISCOVERY_PREFIX = 'homeassistant';
export const DISCOVERY_FILE = 'mqtt-discovery.json';

const KeptSchema = z.object({ topics: z.array(z.string()) });

export interface DiscoveryConfig {
  topic: string;
  config: Record<string, unknown>;
}

export interface DiscoveryDeps {
  gatewayId: string;
  topics: Topics;
  contacts: Contact[];
  version: string;
  /** Phone model for the device card, when known. */
  model?: string | undefined;
}

/**
 * The "Received SMS" event entity: it triggers on every message, also two identical ones in
 * a row (a sensor would not change); its payload carries `event_type` (received.ts).
 */
function receivedEntity(node: string, common: Record<string, unknown>, t: Topics): DiscoveryConfig {
  return {
    topic: `${DISCOVERY_PREFIX}/event/${node}/received/config`,
    config: {
      ...common,
      unique_id: `${node}_received`,
      name: 'Received SMS',
      icon: 'mdi:message-text',
      state_topic: t.received,
      event_types: [...RECEIVED_EVENT_TYPES],
      qos: 1,
    },
  };
}

/** What every entity's config shares: the device card, the availability topic, the origin. */
function commonFields(node: string, deps: DiscoveryDeps): Record<string, unknown> {
  const device = {
    identifiers: [node],
    name: `SMS gateway ${deps.gatewayId}`,
    manufacturer: 'sms-gateway',
    model: deps.model ?? 'Android phone (Termux)',
    sw_version: deps.version,
  };
  return {
    device,
    availability: [{ topic: deps.topics.availability, payload_available: 'online', payload_not_available: 'offline' }],
    origin: { name: 'sms-gateway', sw_version: deps.version },
  };
}

/** One contact's `notify` entity: a message published to its command topic is sent to that contact. */
function notifyEntity(node: string, common: Record<string, unknown>, t: Topics, c: Contact): DiscoveryConfig {
  return {
    topic: `${DISCOVERY_PREFIX}/notify/${node}/${c.slug}/config`,
    config: {
      ...common,
      unique_id: `${node}_notify_${c.slug}`,
      name: `SMS ${c.name}`,
      icon: 'mdi:message-text-outline',
      command_topic: t.notify(c.slug),
      qos: 1,
    },
  };
}

/** Every config this gateway announces. */
export function discoveryConfigs(deps: DiscoveryDeps): DiscoveryConfig[] {
  // The id as it is (Home Assistant's node ids allow `-`): ids that differ only in `-`
  // and `_` stay two devices.
  const node = `sms_gateway_${deps.gatewayId}`;
  const t = deps.topics;
  const common = commonFields(node, deps);
  const sensor = (object: string, extra: Record<string, unknown>): DiscoveryConfig => ({
    topic: `${DISCOVERY_PREFIX}/sensor/${node}/${object}/config`,
    config: { ...common, unique_id: `${node}_${object}`, state_topic: t.state, ...extra },
  });
  // A null value renders None: Home Assistant shows the sensor as unknown.
  const value = (key: string) => `{{ value_json.${key} }}`;
  return [
    sensor('battery', {
      name: 'Battery',
      device_class: 'battery',
      unit_of_measurement: '%',
      state_class: 'measurement',
      entity_category: 'diagnostic',
      value_template: value('battery'),
    }),
    sensor('wifi_signal', {
      name: 'Wi-Fi signal',
      device_class: 'signal_strength',
      unit_of_measurement: 'dBm',
      state_class: 'measurement',
      entity_category: 'diagnostic',
      value_template: value('wifiSignal'),
    }),
    sensor('sent_today', {
      name: 'Sent today',
      icon: 'mdi:message-arrow-right',
      state_class: 'total_increasing',
      value_template: value('sentToday'),
    }),
    sensor('failed_today', {
      name: 'Failed today',
      icon: 'mdi:message-alert',
      state_class: 'total_increasing',
      value_template: value('failedToday'),
    }),
    sensor('queue_waiting', {
      name: 'Waiting in queue',
      icon: 'mdi:tray-full',
      state_class: 'measurement',
      value_template: value('waiting'),
    }),
    sensor('status', {
      name: 'Status',
      device_class: 'enum',
      options: ['ok', 'degraded', 'failing'],
      icon: 'mdi:stethoscope',
      entity_category: 'diagnostic',
      value_template: value('status'),
      json_attributes_topic: t.state,
      json_attributes_template: '{{ {"problems": value_json.problems} | tojson }}',
    }),
    sensor('last_received', {
      name: 'Last received SMS',
      device_class: 'timestamp',
      icon: 'mdi:message-text',
      state_topic: t.lastReceived,
      value_template: '{{ value_json.receivedAt }}',
      json_attributes_topic: t.lastReceived,
    }),
    receivedEntity(node, common, t),
    ...deps.contacts.map((c) => notifyEntity(node, common, t, c)),
  ];
}

/** The config topics published last time (none when the file is missing or unreadable). */
export function readKept(home: string): string[] {
  try {
    return KeptSchema.parse(JSON.parse(readFileSync(join(home, DISCOVERY_FILE), 'utf8'))).topics;
  } catch {
    return [];
  }
}

export function writeKept(home: string, topics: string[]): void {
  writeFileAtomic(join(home, DISCOVERY_FILE), `${JSON.stringify({ topics })}\n`, 0o600);
}

/**
 * Publishes the configs (retained) and an empty retained config for every kept topic no
 * longer announced; then keeps the new list. With discovery off, everything kept is removed.
 */
export function announce(
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean,
  home: string,
  configs: DiscoveryConfig[],
): void {
  const now = new Set(configs.map((c) => c.topic));
  for (const topic of readKept(home)) {
    if (!now.has(topic) && !publish(topic, '', { qos: 1, retain: true })) return;
  }
  for (const c of configs) {
    if (!publish(c.topic, JSON.stringify(c.config), { qos: 1, retain: true })) return;
  }
  writeKept(home, [...now]);
}
