// What the broker refused: a PUBACK or a SUBACK with a failure reason code (0x80 and up:
// its ACLs, a quota, a bad topic). Each refusal is kept on the bridge's health by topic
// (diagnostics' mqtt check is failing while one stands, naming the topic and the broker's
// reason), counted by operation and reason (GET /metrics), and logged as a warning once per
// topic; the same topic accepted later (a PUBACK or SUBACK without failure) clears it, so a
// refusal after that is news again.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { MqttHealth, MqttRefusal } from '../status/mqtt-check.js';

/** The most refusals kept on the health at once (the newest). */
export const MAX_REFUSALS_KEPT = 20;

/** MQTT 5's reason codes a broker refuses with (the spec's names). */
const REASONS: Record<number, string> = {
  0x80: 'Unspecified error',
  0x83: 'Implementation specific error',
  0x87: 'Not authorized',
  0x8f: 'Topic filter invalid',
  0x90: 'Topic name invalid',
  0x91: 'Packet identifier in use',
  0x97: 'Quota exceeded',
  0x99: 'Payload format invalid',
  0x9e: 'Shared subscriptions not supported',
  0xa1: 'Subscription identifiers not supported',
  0xa2: 'Wildcard subscriptions not supported',
};

/** The broker's reason, as the diagnostics and the log say it: `135 Not authorized`. */
export const reasonText = (code: number) => `${code} ${REASONS[code] ?? 'refused'}`;

/** The metrics label of a reason code: `not_authorized`. */
export const reasonLabel = (code: number) => (REASONS[code] ?? `code_${code}`).toLowerCase().replaceAll(' ', '_');

/** A reason code that says the broker refused (MQTT 5: 0x80 and up). */
export const isRefusal = (code: unknown): code is number => typeof code === 'number' && code >= 0x80 && code <= 0xff;

export function createRefusals(health: MqttHealth, deps: { clock: Clock; logger?: Logger | undefined }) {
  const warned = new Set<string>();
  const keyOf = (operation: MqttRefusal['operation'], topic: string) => `${operation} ${topic}`;

  return {
    /** The broker refused `operation` on `topic` with `code`. */
    refused(operation: MqttRefusal['operation'], topic: string, code: number) {
      const at = deps.clock.now();
      const reason = reasonText(code);
      health.refused = health.refused.filter((r) => r.operation !== operation || r.topic !== topic);
      health.refused.push({ operation, topic, reasonCode: code, reason, at });
      if (health.refused.length > MAX_REFUSALS_KEPT) health.refused.shift();
      const counted = `${operation} ${reasonLabel(code)}`;
      health.refusalCounts[counted] = (health.refusalCounts[counted] ?? 0) + 1;
      health.lastError = `the broker refused to let the gateway ${operation} to ${topic}: ${reason}`;
      health.lastErrorAt = at;
      const key = keyOf(operation, topic);
      if (warned.has(key)) return;
      if (warned.size >= 1000) warned.clear(); // bounded; at worst a topic is warned of again
      warned.add(key);
      deps.logger?.warn({ operation, topic, reason }, `the mqtt broker refused a ${operation} (check its ACLs)`);
    },
    /** The broker took `operation` on `topic`: a refusal of it no longer stands. */
    accepted(operation: MqttRefusal['operation'], topic: string) {
      if (!warned.delete(keyOf(operation, topic)) && health.refused.length === 0) return;
      health.refused = health.refused.filter((r) => r.operation !== operation || r.topic !== topic);
    },
  };
}

export type Refusals = ReturnType<typeof createRefusals>;
