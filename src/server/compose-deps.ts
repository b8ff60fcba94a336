// ComposeDeps: everything composeGateway (server/compose.ts) is built from. The start
// command and the tests make it with server/compose-from-config.ts; the bench by hand.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { SecretFile } from '../core/keys.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { LeftoverResult } from '../device/kill-leftover.js';
import type { ProcessGroup } from '../core/handoff-group.js';
import type { QuietHours } from '../core/quiet-hours.js';
import type { Sender } from '../sms/senders.js';
import type { HostInfoDeps } from '../status/host-info.js';
import type { MqttSettings } from '../core/mqtt-settings.js';
import type { Db } from '../store/database.js';
import type { InboxWatcherOptions } from '../events/inbox-watcher.js';

export interface ComposeDeps {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  sender: Sender;
  probes: Probes;
  calendar: () => Calendar;
  defaultSim: number;
  simCount: () => number;
  /** The gateway's home (database file sizes, free disk space). */
  home: string;
  apiKey: SecretFile;
  phoneNumber: string | undefined;
  logger?: Logger | undefined;
  /** Webhook targets (SMS_GATEWAY_WEBHOOK_URLS) and the signing secret. */
  webhookUrls?: string[];
  webhookSecret?: () => string;
  /** Look for handed-off messages in the phone's SMS store (real mode). */
  confirmSends?: boolean;
  /** Environment the device commands run in. */
  deviceEnv?: NodeJS.ProcessEnv | undefined;
  /** Read the phone's inbox this often (default 15 s) while inboxWanted says so. */
  inboxPollMs?: number;
  /** Whether the inbox watcher runs, given the targets registered over the API (config.ts inboxWatcherEnabled). */
  inboxWanted?: (registeredTargets: number) => boolean;
  /** The inbox to read instead of termux-sms-list (simulated mode: device/simulated-inbox.ts). */
  inboxList?: InboxWatcherOptions['list'];
  /** Queued hand-offs: segments per rolling 60 s (SMS_GATEWAY_QUEUE_RATE, default 30). */
  queueRate?: number;
  quietHours?: QuietHours | undefined;
  /** Overrides for tests (a short delivery timeout, fixed jitter, no network interfaces). */
  webhookTimeoutMs?: number;
  random?: () => number;
  interfaces?: HostInfoDeps['interfaces'];
  /** This boot's id (src/device/kill-leftover.ts): a hand-off group is ended only in its own boot. */
  bootId?: string | null;
  /** Ends what is left of an interrupted hand-off (tests replace it). */
  endLeftover?: (group: ProcessGroup) => LeftoverResult;
  /** The MQTT bridge (SMS_GATEWAY_MQTT_URL); off when undefined. */
  mqtt?: MqttOptions | undefined;
}

export interface MqttOptions {
  settings: MqttSettings;
  /** SMS_GATEWAY_ID or the one kept in the home (core/gateway-id.ts). */
  gatewayId: string;
  /** Tests: a short reconnect delay, their own state interval. */
  backoffMs?: (attempt: number) => number;
  stateIntervalMs?: number;
}
