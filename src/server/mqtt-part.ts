// The MQTT part (SMS_GATEWAY_MQTT_URL), built, not started. MQTT.js is loaded only here, only
// when MQTT is configured: it costs a gateway without MQTT ~100 ms and ~18 MB at start.
import type { MqttSettings } from '../core/mqtt-settings.js';
import type { GatewayEventPath } from '../events/domain-events.js';
import type { SendingPart } from '../sms/sending-part.js';
import type { StatusPart } from '../status/status-part.js';
import type { GatewayDeps, Ports } from './gateway-deps.js';

export interface MqttPartDeps {
  deps: GatewayDeps;
  ports: Pick<Ports, 'calendar' | 'mqttGatewayId' | 'timings'>;
  events: Pick<GatewayEventPath, 'on'>;
  sending: Pick<SendingPart, 'enqueue' | 'stats' | 'lane' | 'optOuts'>;
  status: Pick<StatusPart, 'diagnostics'>;
  settings: MqttSettings;
}

export async function composeMqtt({ deps, ports, events, sending, status, settings }: MqttPartDeps) {
  const { createMqttGateway } = await import('../mqtt/mqtt-gateway.js');
  const { timings } = ports;
  return createMqttGateway({
    settings,
    gatewayId: ports.mqttGatewayId(),
    home: deps.config.home,
    version: deps.runtime.version,
    enqueue: sending.enqueue,
    probes: deps.probes,
    stats: sending.stats,
    calendar: ports.calendar,
    clock: deps.clock,
    smsEnabled: deps.runtime.smsEnabled,
    waiting: () => sending.lane.state().waiting,
    diagnostics: () => status.diagnostics(),
    events,
    optOuts: sending.optOuts,
    optOutEnabled: deps.config.optOut.enabled,
    logger: deps.logger,
    ...(timings.mqttBackoffMs ? { backoffMs: timings.mqttBackoffMs } : {}),
    ...(timings.mqttStateIntervalMs ? { stateIntervalMs: timings.mqttStateIntervalMs } : {}),
  });
}
