// The "Received SMS" discovery config against Home Assistant's MQTT `event` platform schema,
// transcribed from home-assistant/core (read 2026-11):
// - homeassistant/components/mqtt/event.py: _PLATFORM_SCHEMA_BASE = MQTT_RO_SCHEMA.extend({
//     device_class: optional, one of EventDeviceClass (doorbell, button, motion), lower-cased;
//     name: optional, None or string; event_types: REQUIRED, a list of strings })
//   .extend(MQTT_ENTITY_COMMON_SCHEMA.schema); DISCOVERY_SCHEMA drops unknown keys
//   (extra=vol.REMOVE_EXTRA): a key it does not know is silently lost, so none may be sent.
//   Its _event_received ignores a retained message and reads `event_type` from the JSON
//   payload (a payload without it is logged and ignored); the other keys become attributes
//   (event_type and event_types are blocked as attributes).
// - homeassistant/components/mqtt/config.py: MQTT_BASE_SCHEMA = { qos: optional 0/1/2,
//   encoding: optional string, group: optional list of strings }; MQTT_RO_SCHEMA adds
//   state_topic (REQUIRED, a subscribe topic) and value_template (optional template).
// - homeassistant/components/mqtt/schemas.py: MQTT_ENTITY_COMMON_SCHEMA = the availability
//   schema (availability_topic, availability_template, payload_available,
//   payload_not_available, availability_mode, availability: list of { topic (required),
//   payload_available, payload_not_available, value_template }) plus device (identifiers,
//   connections, manufacturer, model, model_id, name, hw_version, serial_number, sw_version,
//   via_device, suggested_area, configuration_url; one identifier at least), origin (name
//   REQUIRED, sw_version, support_url), enabled_by_default (bool), entity_category
//   (config | diagnostic), icon (`prefix:name`), json_attributes_topic,
//   json_attributes_template, object_id / default_entity_id, unique_id, entity_picture.
import t from 'tap';
import { discoveryConfigs } from '../../src/mqtt/discovery.js';
import { receivedPayload, RECEIVED_EVENT_TYPES } from '../../src/mqtt/received.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import { makeEvent } from '../../src/store/event-record.js';

type Check = (v: unknown) => boolean;
const str: Check = (v) => typeof v === 'string';
const strList: Check = (v) => Array.isArray(v) && v.every(str);
const bool: Check = (v) => typeof v === 'boolean';
/** valid_subscribe_topic / valid_publish_topic: a non-empty UTF-8 string; a publish topic has no wildcard. */
const topic: Check = (v) => typeof v === 'string' && v.length > 0 && !v.includes('\0');
const keysIn = (v: unknown, fields: Record<string, Check>, required: string[]) =>
  typeof v === 'object' &&
  v !== null &&
  !Array.isArray(v) &&
  required.every((k) => k in v) &&
  Object.entries(v).every(([k, x]) => fields[k]?.(x) === true);

const DEVICE: Record<string, Check> = Object.fromEntries(
  [
    'manufacturer',
    'model',
    'model_id',
    'name',
    'hw_version',
    'serial_number',
    'sw_version',
    'via_device',
    'suggested_area',
    'configuration_url',
  ]
    .map((k) => [k, str] as [string, Check])
    .concat([
      ['identifiers', strList],
      ['connections', (v) => Array.isArray(v) && v.every((c) => Array.isArray(c) && c.length === 2 && c.every(str))],
    ]),
);
const AVAILABILITY_ITEM: Record<string, Check> = {
  topic,
  payload_available: str,
  payload_not_available: str,
  value_template: str,
};

/** Every field the event platform's DISCOVERY_SCHEMA accepts, and what its value must be. */
const EVENT_FIELDS: Record<string, Check> = {
  // event.py
  device_class: (v) => typeof v === 'string' && ['doorbell', 'button', 'motion'].includes(v.toLowerCase()),
  name: (v) => v === null || str(v),
  event_types: (v) => strList(v) && (v as string[]).length > 0,
  // config.py (MQTT_BASE_SCHEMA, MQTT_RO_SCHEMA)
  qos: (v) => v === 0 || v === 1 || v === 2,
  encoding: str,
  group: strList,
  state_topic: topic,
  value_template: str,
  // schemas.py (MQTT_ENTITY_COMMON_SCHEMA and the availability schemas)
  availability_topic: topic,
  availability_template: str,
  payload_available: str,
  payload_not_available: str,
  availability_mode: (v) => v === 'all' || v === 'any' || v === 'latest',
  availability: (v) => Array.isArray(v) && v.every((a) => keysIn(a, AVAILABILITY_ITEM, ['topic'])),
  device: (v) => keysIn(v, DEVICE, []) && ((v as { identifiers?: string[] }).identifiers?.length ?? 0) > 0,
  origin: (v) => keysIn(v, { name: str, sw_version: str, support_url: str }, ['name']),
  enabled_by_default: bool,
  entity_category: (v) => v === 'config' || v === 'diagnostic',
  icon: (v) => typeof v === 'string' && /^[a-z0-9-]+:[a-z0-9-]+$/.test(v),
  json_attributes_topic: topic,
  json_attributes_template: str,
  object_id: str,
  default_entity_id: str,
  unique_id: str,
  entity_picture: str,
};

const configs = discoveryConfigs({
  gatewayId: 'gw1',
  topics: topicsFor('sms-gateway', 'gw1'),
  contacts: [{ name: 'Alice', slug: 'alice', number: '+15551230001' }],
  version: '0.4.0',
});

t.test(
  'the Received SMS event entity: every key one the event platform accepts, with a value of its type',
  async (t) => {
    const event = configs.find((c) => c.topic.startsWith('homeassistant/event/'));
    if (!event) throw new Error('no event entity announced');
    t.equal(event.topic, 'homeassistant/event/sms_gateway_gw1/received/config');
    for (const [key, value] of Object.entries(event.config)) {
      t.ok(key in EVENT_FIELDS, `${key} is a field of the event schema (any other is dropped)`);
      t.ok(EVENT_FIELDS[key]?.(value), `${key} has a value the schema accepts: ${JSON.stringify(value)}`);
    }
    for (const required of ['event_types', 'state_topic']) t.ok(required in event.config, `${required} is required`);
    t.same(event.config.event_types, [...RECEIVED_EVENT_TYPES]);
    t.equal(event.config.state_topic, 'sms-gateway/gw1/received');
    t.equal(event.config.name, 'Received SMS');
  },
);

t.test(
  'what the received topic carries is what the event entity reads: event_type, one of the announced types',
  async (t) => {
    const event = configs.find((c) => c.topic.startsWith('homeassistant/event/'))!;
    const stop = { from: '+15550001', body: 'STOP', inReplyTo: null, keyword: null } as never;
    const payload = receivedPayload({ contacts: [], optOutEnabled: true }, makeEvent('sms.received', stop, 0));
    t.type(payload.event_type, 'string', 'event_type is in the JSON payload');
    t.ok((event.config.event_types as string[]).includes(payload.event_type as string), 'an announced type');
    t.notOk('event_types' in payload, 'no blocked attribute');
  },
);

t.test('the checks refuse what Home Assistant refuses', async (t) => {
  t.notOk(EVENT_FIELDS.event_types?.('opt_out'), 'event_types must be a list');
  t.notOk(EVENT_FIELDS.qos?.(3));
  t.notOk(EVENT_FIELDS.origin?.({ sw_version: '1' }), 'origin needs a name');
  t.notOk(EVENT_FIELDS.device?.({ name: 'x' }), 'a device needs an identifier');
  t.notOk('command_topic' in EVENT_FIELDS, 'an event entity has no command topic');
});
