// What the composition root (server/compose.ts) is built from: the configuration, the few
// process-level parts the start made (database, clock, runtime, probes, key, secret,
// logger, environment, boot id) and the ports. Ports are the gateway's edges to the world
// outside the process (the sender, the phone's inbox and sent box, the calendar, the
// network interfaces, ...); portsFor() makes the real ones for the mode, and `ports` in
// GatewayDeps is THE seam through which a test replaces one (a fake sender, a fixed
// calendar, short timeouts). Everything else comes from the configuration, whose defaults
// live in core/config.ts alone.
import type { networkInterfaces } from 'node:os';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { resolveGatewayId } from '../core/gateway-id.js';
import type { ProcessGroup } from '../core/ids.js';
import type { SecretFile } from '../core/keys.js';
import { SIMULATED_SIM_COUNT, type RuntimeInfo } from '../core/runtime.js';
import { chooseTimeZone, createCalendar, type Calendar } from '../core/time-zone.js';
import { killLeftover, type LeftoverResult } from '../device/kill-leftover.js';
import type { Probes, Snapshot } from '../device/probes.js';
import { simulatedSmsList } from '../device/simulated-inbox.js';
import type { InboxWatcherOptions } from '../events/inbox-watcher.js';
import { createSimulatedSender, createTermuxSender, type Sender } from '../sms/senders.js';
import type { SimCount } from '../sms/validation.js';
import type { Db } from '../store/database.js';

export interface GatewayDeps {
  config: Config;
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  probes: Probes;
  apiKey: SecretFile;
  /** The webhook signing secret (events/signing.ts keeps it in the home). */
  webhookSecret: () => string;
  /** The environment the device commands run in (its TZ picks the calendar first). */
  env: NodeJS.ProcessEnv;
  /** This boot's id (device/kill-leftover.ts): a hand-off group is ended only in its own boot. */
  bootId: string | null;
  logger?: Logger | undefined;
  /** The one seam for tests: any port given here replaces the real one. */
  ports?: Partial<Ports> | undefined;
}

export interface Ports {
  /** Hands SMS to the phone: termux-sms-send in real mode, the simulated sender otherwise. */
  sender: Sender;
  /** The phone's calendar: TZ, else the phone's zone, else UTC. */
  calendar: () => Calendar;
  /**
   * SIM slots the phone has, as known and read when a request needs them; null: it cannot tell (nothing refused on a
   * guess).
   */
  simCount: SimCount;
  /** The phone's sent box is read to confirm hand-offs (real mode). */
  confirmSends: boolean;
  /** The inbox to read instead of termux-sms-list (simulated mode: device/simulated-inbox.ts). */
  inboxList: InboxWatcherOptions['list'] | undefined;
  /** Ends what is left of an interrupted hand-off's process group. */
  endLeftover: (group: ProcessGroup) => LeftoverResult;
  /** The host's network interfaces (host info's LAN addresses). */
  interfaces: typeof networkInterfaces | undefined;
  /** The MQTT gateway id (SMS_GATEWAY_ID, or the one kept in the home, made at the first start with MQTT). */
  mqttGatewayId: () => string;
  /** Timings tests shorten; undefined: each part's own. */
  timings: Timings;
}

export interface Timings {
  webhookTimeoutMs?: number;
  /** Webhook retry jitter. */
  random?: () => number;
  mqttBackoffMs?: (attempt: number) => number;
  mqttStateIntervalMs?: number;
}

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

/** The real ports for the mode, with the given ones in their place; a port given is never made. */
/**
 * The SIM count comes from the phone, read when a request needs it and it is not fresh; when
 * the phone cannot tell, the count is unknown (null) and refuses no slot. Simulated mode with
 * no phone offers two slots, so dual-SIM clients can be tried.
 */
function simCountOf(probes: Probes, real: boolean): SimCount {
  const told = (s: Snapshot) => s.telephony.value?.simCount ?? (real ? null : SIMULATED_SIM_COUNT);
  return { known: () => told(probes.shown()), read: async () => told(await probes.get(['telephony'])) };
}

export function portsFor(deps: GatewayDeps): Ports {
  const { config, runtime, probes, env } = deps;
  const given = deps.ports ?? {};
  const real = runtime.mode === 'real';
  // Made lazily: a port whose making has an effect (a file written) is not made when given.
  const port = <K extends keyof Ports>(key: K, make: () => Ports[K]): Ports[K] =>
    (key in given ? given[key] : make()) as Ports[K];
  const calendar = port('calendar', () => phoneCalendar(env, probes));
  let gatewayId: string | undefined;
  return {
    sender: port('sender', () =>
      real
        ? createTermuxSender({
            timeoutMs: config.sendTimeoutMs,
            env,
            bootId: deps.bootId,
            simCount: simCountOf(probes, real).read,
          })
        : createSimulatedSender(config.simulation),
    ),
    calendar,
    simCount: port('simCount', () => simCountOf(probes, real)),
    confirmSends: port('confirmSends', () => real),
    // No phone, no inbox: simulated mode reads the simulated one (`sms-gateway simulate receive`).
    inboxList: port('inboxList', () => (real ? undefined : simulatedSmsList(config.home, () => calendar().timeZone))),
    endLeftover: port('endLeftover', () => (group: ProcessGroup) => killLeftover(group, { bootId: deps.bootId })),
    interfaces: port('interfaces', () => undefined),
    // The id is made at the first start with MQTT and kept; the broker is not contacted yet.
    mqttGatewayId: port(
      'mqttGatewayId',
      () => () => (gatewayId ??= resolveGatewayId(config.home, config.mqtt?.gatewayId)),
    ),
    timings: port('timings', () => ({})),
  };
}
