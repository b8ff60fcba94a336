// The gauges of GET /metrics read at each scrape: the gateway's info, the queue, the webhook targets, the phone.
import type { Gauge, Registry } from 'prom-client';
import type { Snapshot } from '../device/probes.js';
import type { QueueState } from '../sms/lane.js';
import { seconds, type MetricsDeps, type PromClient } from './metrics-series.js';

type Registers = Registry[];

/** A value the phone could not tell leaves the gauge without a sample, never a made-up 0. */
function setOrClear(g: Gauge, value: number | null | undefined) {
  if (value !== null && value !== undefined) g.set(value);
  else g.remove({}); // reset() would leave a 0
}

/** The gateway's version and mode. */
function infoGauge(Gauge: PromClient['Gauge'], registers: Registers, deps: MetricsDeps) {
  new Gauge({
    name: 'sms_gateway_info',
    help: 'The gateway: its version and mode (real or simulated); always 1.',
    labelNames: ['version', 'mode'] as const,
    registers,
    collect() {
      this.reset();
      this.set({ version: deps.runtime.version, mode: deps.runtime.mode }, 1);
    },
  });
}

/** The queue: what waits, and whether and how long it is paused. */
function queueGauges(Gauge: PromClient['Gauge'], registers: Registers, deps: MetricsDeps) {
  const queue = (name: string, help: string, read: (q: QueueState, now: number) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(deps.queueState(), deps.clock.now()));
      },
    });
  queue('sms_gateway_queue_waiting_messages', 'Queued messages waiting for their hand-off.', (q) => q.waiting);
  queue('sms_gateway_queue_paused', '1 while the queue is paused after a timed-out hand-off, else 0.', (q) =>
    q.paused ? 1 : 0,
  );
  queue(
    'sms_gateway_queue_next_attempt_seconds',
    'Seconds until the paused queue tries again (0 when not paused).',
    (q, now) => (q.nextAttemptAt === null ? 0 : seconds(q.nextAttemptAt - now)),
  );
  queue(
    'sms_gateway_queue_oldest_waiting_seconds',
    'Age of the oldest waiting message in seconds (0 when none waits).',
    (q, now) => (q.oldestWaitingSince === null ? 0 : seconds(now - q.oldestWaitingSince)),
  );
  queue(
    'sms_gateway_queue_consecutive_timeouts',
    'Hand-offs timed out in a row (0 after one succeeds).',
    (q) => q.consecutiveTimeouts,
  );
}

/** The webhook targets: deliveries waiting, and which are switched off. */
function webhookGauges(Gauge: PromClient['Gauge'], registers: Registers, deps: MetricsDeps) {
  new Gauge({
    name: 'sms_gateway_webhook_pending_deliveries',
    help: 'Webhook deliveries waiting per target (its id).',
    labelNames: ['target'] as const,
    registers,
    collect() {
      this.reset();
      for (const t of deps.webhookTargets()) this.set({ target: t.id }, t.pending);
    },
  });
  new Gauge({
    name: 'sms_gateway_webhook_target_disabled',
    help: '1 for a webhook target switched off (it answered 410 Gone), else 0, per target (its id).',
    labelNames: ['target'] as const,
    registers,
    collect() {
      this.reset();
      for (const t of deps.webhookTargets()) this.set({ target: t.id }, t.disabled ? 1 : 0);
    },
  });
}

/** The phone's battery and Wi-Fi, without a sample when unknown. */
function deviceGauges(Gauge: PromClient['Gauge'], registers: Registers, deps: MetricsDeps) {
  const device = (name: string, help: string, read: (s: Snapshot) => number | null | undefined) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        setOrClear(this, read(deps.device()));
      },
    });
  device(
    'sms_gateway_battery_level_percent',
    "The phone's battery level in percent (no sample when unknown).",
    (s) => s.battery.value?.level,
  );
  device('sms_gateway_battery_charging', '1 while the phone charges, else 0 (no sample when unknown).', (s) => {
    const c = s.battery.value?.charging;
    return c === undefined || c === null ? null : c ? 1 : 0;
  });
  device(
    'sms_gateway_battery_temperature_celsius',
    "The battery's temperature (no sample when unknown).",
    (s) => s.battery.value?.temperatureC,
  );
  device(
    'sms_gateway_wifi_signal_dbm',
    "The phone's Wi-Fi signal (RSSI) in dBm (no sample when unknown).",
    (s) => s.wifi.value?.rssi,
  );
}

/** Gauges read at each scrape: the queue, the webhook targets, the phone. */
export function gauges({ Gauge }: PromClient, registry: Registry, deps: MetricsDeps) {
  const registers = [registry];
  infoGauge(Gauge, registers, deps);
  queueGauges(Gauge, registers, deps);
  webhookGauges(Gauge, registers, deps);
  deviceGauges(Gauge, registers, deps);
}
