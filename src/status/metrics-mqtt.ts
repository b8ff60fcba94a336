// The MQTT series of GET /metrics: what the broker refused since the start, by operation
// (publish, subscribe) and reason (not_authorized, quota_exceeded, ...), read from the
// bridge's health at each scrape (mqtt/refusals.ts counts them). No sample while MQTT is off.
import type { Registry } from 'prom-client';
import type { MetricsDeps, PromClient } from './metrics-series.js';

export function mqttSeries({ Counter }: PromClient, registry: Registry, deps: MetricsDeps) {
  const { mqttRefusals } = deps;
  if (!mqttRefusals) return;
  new Counter({
    name: 'sms_gateway_mqtt_refusals_total',
    help: 'Publishes and subscriptions the MQTT broker refused (its ACLs) since the start, by operation and reason.',
    labelNames: ['operation', 'reason'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [key, n] of Object.entries(mqttRefusals())) {
        const [operation = '', reason = ''] = key.split(' ');
        this.inc({ operation, reason }, n);
      }
    },
  });
}
