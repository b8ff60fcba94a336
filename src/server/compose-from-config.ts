// composeDepsFromConfig(config, parts, overrides): what composeGateway (server/compose.ts)
// needs, built from the loaded configuration and the few process-level parts (database,
// clock, runtime, probes, key, logger, environment). The start command (server/run-gateway.ts)
// and the tests' helper both build their gateway through it; tests change only what they
// need (a fake sender, a fixed calendar, short timeouts) through `overrides`.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { inboxWatcherEnabled, type Config } from '../core/config.js';
import type { SecretFile } from '../core/keys.js';
import { resolveGatewayId } from '../core/gateway-id.js';
import { SIMULATED_SIM_COUNT, type RuntimeInfo } from '../core/runtime.js';
import { chooseTimeZone, createCalendar, type Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import { simulatedSmsList } from '../device/simulated-inbox.js';
import { createSimulatedSender, createTermuxSender } from '../sms/senders.js';
import type { Db } from '../store/database.js';
import type { ComposeDeps } from './compose-deps.js';

/** What the process has made before composing: opened, detected or read at start. */
export interface ProcessParts {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  probes: Probes;
  apiKey: SecretFile;
  logger?: Logger | undefined;
  /** The environment the device commands run in (its TZ picks the calendar first). */
  env: NodeJS.ProcessEnv;
  /** The webhook signing secret (events/signing.ts keeps it in the home). */
  webhookSecret: () => string;
  /** This boot's id (device/kill-leftover.ts): a hand-off group is ended only in its own boot. */
  bootId?: string | null;
}

/** Any part of the composition, replaced as given (an explicit undefined included). */
export type ComposeOverrides = { [K in keyof ComposeDeps]?: ComposeDeps[K] | undefined };

/** The calendar of the configured time zone: TZ, else the phone's, else UTC; one per zone. */
function phoneCalendar(env: NodeJS.ProcessEnv, probes: Probes): () => Calendar {
  const calendars = new Map<string, Calendar>();
  return () => {
    // known(), not peek(): looking up the zone (per message) never sets off a probe round.
    const tz = chooseTimeZone([env.TZ, probes.known().props.value?.timeZone]);
    let c = calendars.get(tz);
    if (!c) calendars.set(tz, (c = createCalendar(tz)));
    return c;
  };
}

export function composeDepsFromConfig(config: Config, parts: ProcessParts, overrides: ComposeOverrides = {}): ComposeDeps {
  const { runtime, probes, env } = parts;
  const real = runtime.mode === 'real';
  // Parts whose making has an effect (a file written, a process to spawn later) are made
  // only when the overrides do not replace them.
  const made = <K extends keyof ComposeDeps>(key: K, make: () => ComposeDeps[K]): ComposeDeps[K] =>
    (key in overrides ? overrides[key] : make()) as ComposeDeps[K];
  const calendar = made('calendar', () => phoneCalendar(env, probes));
  return {
    db: parts.db,
    clock: parts.clock,
    runtime,
    probes,
    apiKey: parts.apiKey,
    logger: parts.logger,
    home: config.home,
    sender: made('sender', () =>
      real ? createTermuxSender({ timeoutMs: config.sendTimeoutMs, env, bootId: parts.bootId ?? null }) : createSimulatedSender(config.simulation),
    ),
    calendar,
    defaultSim: config.defaultSim,
    // The SIM count comes from the phone; until it answers (or when it cannot tell) only
    // slot 1 is known to exist. Simulated mode with no phone offers two slots, so
    // dual-SIM clients can be tried.
    simCount: () => probes.peek().telephony.value?.simCount ?? (real ? 1 : SIMULATED_SIM_COUNT),
    phoneNumber: config.phoneNumber,
    webhookUrls: config.webhookUrls,
    webhookSecret: parts.webhookSecret,
    confirmSends: real,
    inboxPollMs: config.inboxPollMs,
    inboxWanted: (registered) => inboxWatcherEnabled(config, registered),
    // No phone, no inbox: simulated mode reads the simulated one (`sms-gateway simulate receive`).
    inboxList: made('inboxList', () => (real ? undefined : simulatedSmsList(config.home, () => calendar().timeZone))),
    queueRate: config.queueRate,
    quietHours: config.quietHours,
    deviceEnv: env,
    bootId: parts.bootId ?? null,
    // MQTT: the id is made at the first start with MQTT and kept; the broker is not contacted yet.
    mqtt: made('mqtt', () =>
      config.mqtt ? { settings: config.mqtt, gatewayId: resolveGatewayId(config.home, config.mqtt.gatewayId) } : undefined,
    ),
    ...overrides,
  } as ComposeDeps;
}
