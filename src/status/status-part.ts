// The status part: host info (GET /api/device), diagnostics (GET /api/diagnostics, the
// `status` command, MQTT's sensors) and the Prometheus metrics, each reading the other parts
// through narrow views when asked. Metrics listen to `handoff.finished`, `message.settled`
// and `sms.received`; a failed hand-off also makes the next ask read the telephony facts
// again (a SIM swapped or the network lost shows there first). The MQTT bridge is composed after this part (its sensors
// read
// diagnostics): reportMqtt() hands its health in once it exists.
import type { networkInterfaces } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { Subscriber } from '../core/dispatcher.js';
import type { SecretFile } from '../core/keys.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { EventsPart } from '../events/events-part.js';
import type { InboxPart } from '../events/inbox-part.js';
import type { SendEvents } from '../sms/send-events.js';
import type { SendingPart } from '../sms/sending-part.js';
import type { Db } from '../store/database.js';
import type { OutboxEvents } from '../store/outbox.js';
import { createDiagnostics } from './diagnostics.js';
import { createHostInfo } from './host-info.js';
import { createMetrics } from './metrics.js';
import type { MqttHealth } from './mqtt-check.js';
import type { SmtpHealth } from './smtp-check.js';
import { createSmsgateHealth } from './smsgate-health.js';
import { createSmsgatePhone } from './smsgate-device.js';
import { createRecentOutcomes } from '../store/recent-outcomes.js';
import { createLogEntriesStore } from '../store/log-entries.js';
import { createLogKeeper } from './log-keeper.js';

/** The configuration's section for status. */
export type StatusConfig = Pick<Config, 'home' | 'phoneNumber' | 'defaultSim' | 'queueRate' | 'quietHours'>;

export interface StatusPartDeps {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  config: StatusConfig;
  probes: Probes;
  apiKey: SecretFile;
  calendar: () => Calendar;
  events: Subscriber<Pick<SendEvents, 'handoff.finished'> & Pick<OutboxEvents, 'message.settled' | 'sms.received'>>;
  sending: Pick<
    SendingPart,
    'stats' | 'messages' | 'pacing' | 'lane' | 'sendHealth' | 'autoReplies' | 'optOuts' | 'ruleReplies'
  >;
  webhooks: Pick<EventsPart, 'outbox'>;
  inbox: Pick<InboxPart, 'enabled' | 'watcher'>;
  /** Tests: no network interfaces. */
  interfaces?: typeof networkInterfaces | undefined;
}

export function createStatusPart(deps: StatusPartDeps) {
  const { clock, runtime, probes, config, sending, events } = deps;
  let mqttHealth: () => Readonly<MqttHealth> | null = () => null;
  let smtpHealth: () => Readonly<SmtpHealth> | null = () => null;
  const hostInfo = createHostInfo({
    clock,
    runtime,
    probes,
    calendar: deps.calendar,
    stats: sending.stats,
    messages: sending.messages,
    phoneNumber: config.phoneNumber,
    defaultSim: config.defaultSim,
    ...(deps.interfaces ? { interfaces: deps.interfaces } : {}),
  });
  const diagnostics = createDiagnostics({
    clock,
    runtime,
    probes,
    db: deps.db,
    home: config.home,
    apiKey: deps.apiKey,
    sendHealth: () => sending.sendHealth.current(),
    historySize: () => sending.messages.count(),
    budgetUsage: () => sending.pacing.usage(),
    queueState: () => sending.lane.state(),
    queueRate: config.queueRate,
    quietHours: config.quietHours?.text ?? null,
    webhookTargets: () => deps.webhooks.outbox.status(),
    inboxHealth: () => (deps.inbox.enabled() ? deps.inbox.watcher.health() : null),
    mqttHealth: () => mqttHealth(),
    smtpHealth: () => smtpHealth(),
  });
  const metrics = createMetrics({
    clock,
    runtime,
    totals: () => sending.stats.allTime(),
    queueState: () => sending.lane.state(),
    webhookTargets: () => deps.webhooks.outbox.status(),
    device: () => probes.shown(),
    readDevice: () => probes.get(['battery', 'wifi']),
    autoRepliesSkipped: () => sending.autoReplies.skipped(),
    optedOutNumbers: () => sending.optOuts.count(),
    ruleReplies: () => sending.ruleReplies.queued(),
    mqttRefusals: () => mqttHealth()?.refusalCounts ?? {},
    smtp: () => smtpHealth(),
  });

  const outcomes = createRecentOutcomes(deps.db);
  const smsgateHealth = createSmsgateHealth({ clock, runtime, probes, outcomes: (since) => outcomes.since(since) });
  const smsgatePhone = createSmsgatePhone({ runtime, probes, ...config });
  const logs = createLogKeeper({ clock, store: createLogEntriesStore(deps.db) });

  events.on('handoff.finished', (h) => {
    metrics.onHandoff(h);
    if (!h.result.ok) probes.invalidate(['telephony']);
  });
  events.on('message.settled', (e) => metrics.onEvent(e));
  events.on('sms.received', (e) => metrics.onEvent(e));

  return {
    hostInfo,
    diagnostics,
    metrics,
    /** SMSGate's health from kept facts (GET /health with Basic, the `system:ping` webhook); reads no device fact. */
    smsgateHealth,
    /** The phone as SMSGate's clients see it (GET /, GET /device); reads no device fact. */
    smsgatePhone,
    /** The kept warnings and errors (SMSGate's GET /logs); the composition root taps the logger into it. */
    logs,
    /** The MQTT bridge's health, once the bridge exists (MQTT on). */
    reportMqtt(health: () => Readonly<MqttHealth> | null) {
      mqttHealth = health;
    },
    /** The e-mail intake's health, once it exists (SMTP on): its check and its metrics. */
    reportSmtp(health: () => Readonly<SmtpHealth> | null) {
      smtpHealth = health;
    },
  };
}

export type StatusPart = ReturnType<typeof createStatusPart>;
