// The MQTT part of the configuration: SMS_GATEWAY_MQTT_* and SMS_GATEWAY_ID, one zod piece
// per variable (merged into config.ts's EnvSchema) and the resolved MqttSettings. Off
// (undefined) unless SMS_GATEWAY_MQTT_URL is set; every other MQTT variable is then checked.
import * as z from 'zod';

/** A topic level of our own: no wildcards, no slash, no leading `$`. */
export const TOPIC_LEVEL = /^[A-Za-z0-9_-]{1,64}$/;
const E164 = /^\+[1-9]\d{6,14}$/;
const CONTACT_NAME = /^[\p{L}\p{N}][\p{L}\p{N} ._'-]{0,39}$/u;

export interface Contact {
  /** As written in SMS_GATEWAY_MQTT_CONTACTS (Home Assistant shows it). */
  name: string;
  /** Lower-case topic level and unique_id part made from the name. */
  slug: string;
  number: string;
}

export interface MqttSettings {
  url: string;
  username: string | undefined;
  password: string | undefined;
  prefix: string;
  /** SMS_GATEWAY_ID; undefined: the id kept in the home (core/gateway-id.ts). */
  gatewayId: string | undefined;
  contacts: Contact[];
  discovery: boolean;
  /** SMS_GATEWAY_MQTT_SHARE_SECRET: the opt-out changes shared with the prefix's phones are proven under it. */
  shareSecret: string | undefined;
}

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

export const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^\w -]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');

/**
 * A contacts variable's text (`name:+number,...`) as the contacts, or its error (SMS_GATEWAY_CONTACTS and its old
 * name).
 */
export const ContactsText = z.string().transform((raw, ctx) => {
  const parsed = parseContacts(raw);
  if (typeof parsed === 'string') {
    ctx.addIssue({ code: 'custom', message: parsed });
    return z.NEVER;
  }
  return parsed;
});

/** Parses `name:+number,...`; a string is the error to report. */
export function parseContacts(raw: string): Contact[] | string {
  const out: Contact[] = [];
  for (const part of raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const at = part.lastIndexOf(':');
    if (at <= 0) return `"${part}" is not name:+number (for example Alice:+15551234567)`;
    const name = part.slice(0, at).trim();
    const number = part.slice(at + 1).trim();
    if (!CONTACT_NAME.test(name))
      return `contact name "${name}" must be 1 to 40 letters, digits, spaces, dots, dashes or underscores`;
    if (!E164.test(number))
      return `the number of ${name} must be in international form, + and 7 to 15 digits (got "${number}")`;
    const slug = slugOf(name);
    if (!TOPIC_LEVEL.test(slug))
      return `contact name "${name}" needs at least one Latin letter or digit (it names the entity)`;
    const twin = out.find((c) => c.slug === slug);
    if (twin) return `contacts "${twin.name}" and "${name}" have the same entity name "${slug}"`;
    out.push({ name, slug, number });
  }
  return out;
}

export const MqttEnvShape = {
  SMS_GATEWAY_MQTT_URL: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .refine((raw) => {
        try {
          const u = new URL(raw);
          return (u.protocol === 'mqtt:' || u.protocol === 'mqtts:') && u.hostname !== '';
        } catch {
          return false;
        }
      }, 'must be mqtt://host[:port] or mqtts://host[:port] (credentials may go in the URL)')
      .optional(),
  ),
  SMS_GATEWAY_MQTT_USERNAME: z.preprocess(blank, z.string().optional()),
  SMS_GATEWAY_MQTT_PASSWORD: z.preprocess(blank, z.string().optional()),
  SMS_GATEWAY_MQTT_SHARE_SECRET: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .min(16, 'must be at least 16 characters, the same on every phone of the prefix (e.g. openssl rand -hex 32)')
      .max(1024, 'must be at most 1024 characters')
      .optional(),
  ),
  SMS_GATEWAY_MQTT_PREFIX: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(TOPIC_LEVEL, 'must be 1 to 64 letters, digits, dashes or underscores (one topic level)')
      .default('sms-gateway'),
  ),
  SMS_GATEWAY_ID: z.preprocess(
    blank,
    z
      .string()
      .trim()
      .regex(TOPIC_LEVEL, 'must be 1 to 64 letters, digits, dashes or underscores (one topic level)')
      .optional(),
  ),
  SMS_GATEWAY_MQTT_CONTACTS: z.preprocess(blank, ContactsText.default([])),
  SMS_GATEWAY_MQTT_DISCOVERY: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v),
    z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], { error: 'must be true or false' })
      .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
      .default(true),
  ),
};

/** The variables as parsed (core/config.ts parses them as part of its own schema). */
type MqttEnv = z.output<z.ZodObject<typeof MqttEnvShape>>;

/** The settings, or undefined when SMS_GATEWAY_MQTT_URL is not set. */
export function mqttSettings(e: MqttEnv): MqttSettings | undefined {
  if (e.SMS_GATEWAY_MQTT_URL === undefined) return undefined;
  return {
    url: e.SMS_GATEWAY_MQTT_URL,
    username: e.SMS_GATEWAY_MQTT_USERNAME,
    password: e.SMS_GATEWAY_MQTT_PASSWORD,
    prefix: e.SMS_GATEWAY_MQTT_PREFIX,
    gatewayId: e.SMS_GATEWAY_ID,
    contacts: e.SMS_GATEWAY_MQTT_CONTACTS,
    discovery: e.SMS_GATEWAY_MQTT_DISCOVERY,
    shareSecret: e.SMS_GATEWAY_MQTT_SHARE_SECRET,
  };
}
