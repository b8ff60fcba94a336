// The gateway's Prometheus metrics (GET /metrics), one prom-client Registry per gateway (no
// module-level registry). Values are read when scraped, from the stores and the lane: no
// timer of its own, so an idle gateway stays idle. The phone's battery and Wi-Fi are read
// before the answer when the last reading is 5 minutes old (device/probes.ts): a scrape every
// 15 s reads each at most 12 times an hour. Counters kept by the store (messages,
// segments, webhook deliveries per target) survive a restart; what the store keeps no
// total of (failures by reason, received SMS, segments handed off, hand-off durations) is
// counted here from the store's after-commit announcements and the lane's hand-offs since
// this process started (a counter reset Prometheus' rate() and increase() expect). Webhook
// targets are labelled by id, never by URL (a URL's path may hold a secret).
// prom-client (its public index) is imported at the first scrape, not at start: the index
// also loads the Summary, the Pushgateway (http, https, zlib), the default metrics
// (OpenTelemetry, v8, perf_hooks) and the cluster aggregator, ~160 KB a start would compile
// for nothing (test/e2e/start-footprint.test.ts). Until then the since-start counts are
// kept here in plain numbers, and the hand-off durations per bucket with their sums, handed
// to the registry when it is built (each bucket's observations replayed at their mean, which
// lies in the bucket: the same bucket counts, sum and count).
import type { Histogram, Registry } from 'prom-client';
import type { FinishedHandoff } from '../sms/handoff.js';
import type { WebhookEvent } from '../store/event-record.js';
import { REASONS, type Reason } from '../store/message-record.js';
import { mqttSeries } from './metrics-mqtt.js';
import { gauges } from './metrics-gauges.js';
import {
  optOutSeries,
  processGauges,
  seconds,
  storedCounters,
  type MetricsDeps,
  type PromClient,
} from './metrics-series.js';
import { smtpSeries } from './smtp-metrics.js';

export type { MetricsDeps } from './metrics-series.js';

/** Hand-off durations in seconds: termux-sms-send answers in about a second; it times out at 30. */
const HANDOFF_BUCKETS = [0.25, 0.5, 1, 2, 3, 5, 10, 20, 30, 60];
const RESULTS = ['ok', 'failed'] as const;
type HandoffResultLabel = (typeof RESULTS)[number];

/**
 * Hand-off durations observed before the registry exists: per result, per bucket (and above the last), count and sum.
 */
function earlyDurations() {
  const byResult = new Map(RESULTS.map((r) => [r, HANDOFF_BUCKETS.concat(Infinity).map(() => ({ count: 0, sum: 0 }))]));
  return {
    observe(result: HandoffResultLabel, value: number): void {
      const at = HANDOFF_BUCKETS.findIndex((le) => value <= le);
      const bucket = byResult.get(result)![at === -1 ? HANDOFF_BUCKETS.length : at]!;
      bucket.count++;
      bucket.sum += value;
    },
    /** Into the histogram: each bucket's observations at their mean (within the bucket). */
    replay(histogram: Histogram<'result'>): void {
      for (const [result, buckets] of byResult) {
        for (const { count, sum } of buckets)
          for (let i = 0; i < count; i++) histogram.observe({ result }, sum / count);
      }
    },
  };
}

/** What is counted since the start (no store keeps it). */
interface Tallies {
  failures: Map<Reason, number>;
  received: number;
  handedOff: number;
  /** Connections closed for not reading their answers, by reason (the http side's few fixed names). */
  slowReaders: Map<string, number>;
}

/** The registry with every series; the since-start counters read `tallies` at each scrape. */
function buildRegistry(pc: PromClient, deps: MetricsDeps, tallies: Tallies) {
  const registry = new pc.Registry();
  const registers = [registry];
  storedCounters(pc, registry, deps);
  gauges(pc, registry, deps);
  processGauges(pc, registry, deps.runtime);
  optOutSeries(pc, registry, deps);
  mqttSeries(pc, registry, deps);
  smtpSeries(pc, registry, () => deps.smtp?.() ?? null);
  const fromTally = (name: string, help: string, read: () => number) =>
    new pc.Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  new pc.Counter({
    name: 'sms_gateway_message_failures_total',
    help: 'Messages failed since the gateway started, by reason.',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [reason, n] of tallies.failures) this.inc({ reason }, n);
    },
  });
  new pc.Counter({
    name: 'sms_gateway_slow_reader_connections_closed_total',
    help:
      'Connections closed since the gateway started because their answers were not being read, by reason ' +
      '(http/flood/).',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [reason, n] of tallies.slowReaders) this.inc({ reason }, n);
    },
  });
  fromTally(
    'sms_gateway_received_messages_total',
    'SMS received (announced by the inbox watcher) since the gateway started.',
    () => tallies.received,
  );
  fromTally(
    'sms_gateway_segments_handed_off_total',
    'SMS segments given to the phone (termux-sms-send) since the gateway started, whatever it answered.',
    () => tallies.handedOff,
  );
  const handoffs = new pc.Histogram({
    name: 'sms_gateway_handoff_duration_seconds',
    help: 'How long hand-offs to the phone took (termux-sms-send), since the gateway started, by result (ok, failed).',
    labelNames: ['result'] as const,
    buckets: HANDOFF_BUCKETS,
    registers,
  });
  for (const result of RESULTS) handoffs.zero({ result });
  return { registry, handoffs };
}

export function createMetrics(deps: MetricsDeps) {
  const tallies: Tallies = {
    failures: new Map<Reason, number>(REASONS.map((r) => [r, 0])),
    received: 0,
    handedOff: 0,
    slowReaders: new Map(),
  };
  const early = earlyDurations();
  let built: { registry: Registry; handoffs: Histogram<'result'> } | undefined;
  let building: Promise<Registry> | undefined;
  /** The registry, built at the first scrape (prom-client imported then), with the durations seen before. */
  const registry = (): Promise<Registry> =>
    (building ??= import('prom-client').then(({ default: pc }) => {
      built = buildRegistry(pc, deps, tallies);
      early.replay(built.handoffs);
      return built.registry;
    }));

  return {
    /** Listener of message.settled and sms.received (status/status-part.ts). */
    onEvent(event: WebhookEvent): void {
      if (event.type === 'sms.received') tallies.received++;
      else if (event.type === 'sms.failed') {
        const reason = event.data.reason;
        if (reason) tallies.failures.set(reason, (tallies.failures.get(reason) ?? 0) + 1);
      }
    },
    /** Listener of handoff.finished: a hand-off the lane finished (before it is settled). */
    onHandoff(h: {
      row: Pick<FinishedHandoff['row'], 'segments' | 'handoffStartedAt'>;
      result: Pick<FinishedHandoff['result'], 'ok'>;
      at: number;
    }): void {
      tallies.handedOff += h.row.segments;
      if (h.row.handoffStartedAt === null) return;
      const result = h.result.ok ? 'ok' : 'failed';
      const took = seconds(h.at - h.row.handoffStartedAt);
      if (built) built.handoffs.observe({ result }, took);
      else early.observe(result, took);
    },
    /** A connection closed for not reading its answers (http/flood/, through server/app.ts). */
    onSlowReaderClosed(reason: string): void {
      tallies.slowReaders.set(reason, (tallies.slowReaders.get(reason) ?? 0) + 1);
    },
    /** Every series, computed now, in the text exposition format 0.0.4. */
    scrape: async (): Promise<string> => {
      await deps.readDevice?.();
      return (await registry()).metrics();
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
