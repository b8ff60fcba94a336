// The MQTT part (SMS_GATEWAY_MQTT_URL), built, not started, from its own section: the
// watched clock, the settings, the parts it reads and the event path it listens on. MQTT.js
// is loaded only here, only when MQTT is configured: it costs a gateway without MQTT ~100 ms
// and ~18 MB at start.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { MqttSettings } from '../core/mqtt-settings.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { GatewayEventPath } from '../events/domain-events.js';
import type { SendingPart } from '../sms/sending-part.js';
import type { StatusPart } from '../status/status-part.js';
import type { Timings } from './gateway-deps.js';

export interface MqttPartDeps {
  /** The watched clock (core/clock-watch.ts). */
  clock: Clock;
  runtime: Pick<RuntimeInfo, 'version' | 'smsEnabled'>;
  config: Pick<Config, 'home' | 'optOut'>;
  settings: MqttSettings;
  /** SMS_GATEWAY_ID, or the one kept in the home. */
  gatewayId: () => string;
  probes: Probes;
  calendar: () => Calendar;
  timings: Pick<Timings, 'mqttBackoffMs' | 'mqttStateIntervalMs'>;
  events: Pick<GatewayEventPath, 'on'>;
  sending: Pick<SendingPart, 'enqueue' | 'stats' | 'lane' | 'optOuts'>;
  status: Pick<StatusPart, 'diagnostics'>;
  logger?: Logger | undefined;
}

export async function composeMqtt(deps: MqttPartDeps) {
  const { createMqttGateway } = await import('../mqtt/mqtt-gateway.js');
  const { sending, status, timings } = deps;
  return createMqttGateway({
    settings: deps.settings,
    gatewayId: deps.gatewayId(),
    home: deps.config.home,
    version: deps.runtime.version,
    enqueue: sending.enqueue,
    probes: deps.probes,
    stats: sending.stats,
    calendar: deps.calendar,
    clock: deps.clock,
    smsEnabled: deps.runtime.smsEnabled,
    waiting: () => sending.lane.state().waiting,
    diagnostics: () => status.diagnostics(),
    events: deps.events,
    optOuts: sending.optOuts,
    optOutEnabled: deps.config.optOut.enabled,
    logger: deps.logger,
    ...(timings.mqttBackoffMs ? { backoffMs: timings.mqttBackoffMs } : {}),
    ...(timings.mqttStateIntervalMs ? { stateIntervalMs: timings.mqttStateIntervalMs } : {}),
  });
}
