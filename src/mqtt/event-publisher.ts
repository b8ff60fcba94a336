// Every webhook event, also on MQTT: QoS 1, not retained, to `<prefix>/<id>/events/<type>`
// with the same JSON body as the webhook. Live only: an event made while the broker is
// unreachable is counted as dropped (webhooks are the durable path).
import type { WebhookEvent } from '../store/event-record.js';
import type { MqttHealth } from '../status/mqtt-check.js';
import type { Topics } from './topics.js';

export interface EventPublisherDeps {
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;
  topics: Topics;
  health: () => MqttHealth;
}

export function createEventPublisher(deps: EventPublisherDeps) {
  return (event: WebhookEvent) => {
    const ok = deps.publish(deps.topics.event(event.type), JSON.stringify(event), { qos: 1, retain: false });
    if (ok) deps.health().eventsPublished += 1;
    else deps.health().eventsDropped += 1;
  };
}
