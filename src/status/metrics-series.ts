// The series of GET /metrics read at each scrape (status/metrics.ts builds the registry at
// the first scrape and passes prom-client in): the counters whose totals the store keeps, the
// opt-out series, and what the process itself costs (the gauges: status/metrics-gauges.ts).
// Each reads its value in collect(): nothing here runs between scrapes.
import type { Registry } from 'prom-client';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Snapshot } from '../device/probes.js';
import type { Counts } from '../store/stats.js';
import type { QueueState } from '../sms/lane.js';
import type { TargetStatus } from '../store/webhook-targets.js';
import type { Clock } from '../core/clock.js';
import type { SmtpHealth } from './smtp-check.js';

export interface MetricsDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  /** The daily roll-ups summed over all time (store/stats.ts). */
  totals: () => Counts;
  queueState: () => QueueState;
  webhookTargets: () => TargetStatus[];
  /** The device facts as they may be shown (none older than its max age); never waits. */
  device: () => Snapshot;
  /** Reads the battery and Wi-Fi facts the scrape shows, when they are not fresh (before collecting). */
  readDevice?: (() => Promise<unknown>) | undefined;
  /** Automatic messages skipped since the start by the loop and cost guard, by reason (sms/auto-reply-guard.ts). */
  autoRepliesSkipped?: (() => ReadonlyMap<string, number>) | undefined;
  /** Numbers on the opt-out list now. */
  optedOutNumbers?: (() => number) | undefined;
  /** Keyword rules' replies queued since the start (sms/rule-replies.ts). */
  ruleReplies?: (() => number) | undefined;
  /** What the MQTT broker refused since the start, by `<operation> <reason>` (mqtt/refusals.ts). */
  mqttRefusals?: (() => Readonly<Record<string, number>>) | undefined;
  /** The e-mail intake's counts (status/smtp-metrics.ts); null while it is off. */
  smtp?: (() => Readonly<SmtpHealth> | null) | undefined;
}

/** prom-client's public index, loaded at the first scrape. */
export type PromClient = typeof import('prom-client');

export const seconds = (ms: number) => Math.max(0, ms) / 1000;

/** Counters whose totals the store keeps: set from it at each scrape. */
export function storedCounters({ Counter }: PromClient, registry: Registry, deps: MetricsDeps) {
  const registers = [registry];
  const fromTotals = (name: string, help: string, pick: (c: Counts) => number) =>
    new Counter({
      name,
      help,
      registers,
      collect() {
        this.reset();
        this.inc(pick(deps.totals()));
      },
    });
  fromTotals(
    'sms_gateway_messages_accepted_total',
    'Messages accepted (sent synchronously or queued), all time.',
    (c) => c.accepted,
  );
  fromTotals('sms_gateway_messages_sent_total', 'Messages sent, all time.', (c) => c.sent);
  fromTotals(
    'sms_gateway_messages_failed_total',
    'Messages failed, all time (by reason: sms_gateway_message_failures_total).',
    (c) => c.failed,
  );
  fromTotals('sms_gateway_messages_cancelled_total', 'Queued messages cancelled, all time.', (c) => c.cancelled);
  fromTotals(
    'sms_gateway_segments_accepted_total',
    'SMS segments of the messages accepted, all time.',
    (c) => c.segments,
  );
  fromTotals(
    'sms_gateway_segments_billed_total',
    'SMS segments the phone sent (billed by the carrier), all time.',
    (c) => c.billedSegments,
  );

  new Counter({
    name: 'sms_gateway_webhook_deliveries_total',
    help: 'Webhook deliveries per target (its id) and result: delivered, failed_attempt (retried), expired (given up).',
    labelNames: ['target', 'result'] as const,
    registers,
    collect() {
      this.reset();
      for (const t of deps.webhookTargets()) {
        this.inc({ target: t.id, result: 'delivered' }, t.delivered);
        this.inc({ target: t.id, result: 'failed_attempt' }, t.failedAttempts);
        this.inc({ target: t.id, result: 'expired' }, t.expired);
      }
    },
  });
}

/** The opt-out list, the keyword rules' replies and the automatic messages the loop and cost guard skipped. */
export function optOutSeries({ Counter, Gauge }: PromClient, registry: Registry, deps: MetricsDeps) {
  const registers = [registry];
  const { autoRepliesSkipped, optedOutNumbers, ruleReplies } = deps;
  if (autoRepliesSkipped) {
    new Counter({
      name: 'sms_gateway_auto_replies_skipped_total',
      help:
        'Automatic messages (opt-out confirmations, HELP answers, rule replies) not queued since the gateway ' +
        'started, by reason: not_dialable, sender_limit, hourly_limit.',
      labelNames: ['reason'] as const,
      registers,
      collect() {
        this.reset();
        for (const [reason, n] of autoRepliesSkipped()) this.inc({ reason }, n);
      },
    });
  }
  if (ruleReplies) {
    new Counter({
      name: 'sms_gateway_rule_replies_total',
      help: "Keyword rules' replies queued since the gateway started.",
      registers,
      collect() {
        this.reset();
        this.inc(ruleReplies());
      },
    });
  }
  if (optedOutNumbers) {
    new Gauge({
      name: 'sms_gateway_opted_out_numbers',
      help: 'Numbers on the opt-out list now.',
      registers,
      collect() {
        this.set(optedOutNumbers());
      },
    });
  }
}

/** What the process itself costs, read at the scrape (prom-client's default metrics start monitors; these do not). */
export function processGauges({ Counter, Gauge }: PromClient, registry: Registry, runtime: RuntimeInfo) {
  const registers = [registry];
  new Counter({
    name: 'process_cpu_seconds_total',
    help: 'User and system CPU time spent by the gateway process, in seconds.',
    registers,
    collect() {
      const { user, system } = process.cpuUsage();
      this.reset();
      this.inc((user + system) / 1e6);
    },
  });
  new Gauge({
    name: 'process_resident_memory_bytes',
    help: 'Resident memory of the gateway process, in bytes.',
    registers,
    collect() {
      this.set(process.memoryUsage.rss());
    },
  });
  new Gauge({
    name: 'process_start_time_seconds',
    help: 'When the gateway process started, in seconds since the Unix epoch.',
    registers,
    collect() {
      this.set(runtime.startedAt / 1000);
    },
  });
}
