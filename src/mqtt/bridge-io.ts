// The bridge's input and output on its current connection (bridge.ts keeps the connection):
// publish, subscribe and unsubscribe, none of which queues anything while disconnected, and
// the redaction of the broker's credentials from the errors they report. What the broker
// refuses (a PUBACK or SUBACK failure code) and takes again goes to mqtt/refusals.ts.
import type { ClientSubscribeCallback, ISubscriptionGrant, MqttClient } from 'mqtt';
import type { MqttHealth } from '../status/mqtt-check.js';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createRefusals, isRefusal, type Refusals } from './refusals.js';

/** An error's message without the URL's credentials or the password. */
export function redactError(message: string, secrets: (string | undefined)[]): string {
  let out = message.replace(/(mqtts?:\/\/)[^@\s/]*@/gi, '$1');
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out.slice(0, 300);
}

type Suback = Parameters<ClientSubscribeCallback>[2];

/** Tells refusals what a SUBACK said of each filter; returns the filters it refused. */
function subackRefusals(refusals: Refusals, granted: ISubscriptionGrant[] | undefined, packet: Suback): string[] {
  const refused: string[] = [];
  (granted ?? []).forEach((sub, i) => {
    const code = packet?.granted[i];
    if (isRefusal(code)) {
      refused.push(sub.topic);
      refusals.refused('subscribe', sub.topic, code);
    } else if (code !== undefined) refusals.accepted('subscribe', sub.topic);
  });
  return refused;
}

/** Publish, subscribe and unsubscribe on the current connection (none: nothing is queued). */
export function createBridgeIo(
  current: () => MqttClient | undefined,
  health: MqttHealth,
  deps: { clock: Clock; logger?: Logger | undefined },
  secrets: (string | undefined)[],
) {
  const refusals = createRefusals(health, deps);
  return {
    /** Publishes now if connected; false (nothing queued) when not. */
    publish(topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }): boolean {
      const client = current();
      if (!client?.connected) return false;
      client.publish(topic, payload, { qos: opts.qos, retain: opts.retain }, (err) => {
        const code = (err as { code?: unknown } | undefined)?.code;
        if (isRefusal(code)) refusals.refused('publish', topic, code);
        else if (err) {
          const detail = redactError(err.message, secrets);
          deps.logger?.debug({ topic, err: detail }, 'mqtt publish not acknowledged');
        } else if (opts.qos === 1) refusals.accepted('publish', topic); // a PUBACK without failure
      });
      return true;
    },
    /**
     * One SUBSCRIBE for all; `retainedFilters`: the broker gives their retained messages at subscribe (the shared
     * opt-outs).
     */
    subscribe(filters: string[], retainedFilters: string[] = []) {
      // rh 2: the broker never gives a retained message at subscribe (a send would be given again
      // at every connect); rap: a retained publish keeps its flag, so onMessage can refuse it.
      const map: Record<string, { qos: 1; rh: 0 | 2; rap: true }> = {};
      for (const f of filters) map[f] = { qos: 1, rh: 2, rap: true };
      for (const f of retainedFilters) map[f] = { qos: 1, rh: 0, rap: true };
      const all = [...filters, ...retainedFilters];
      current()?.subscribe(map, (err, granted, packet) => {
        // MQTT.js reports a SUBACK refusal (an ACL) as an error, with each filter's code in the packet.
        const refused = subackRefusals(refusals, granted, packet);
        health.subscriptionRefused = refused.length > 0 ? refused.join(', ') : null;
        if (!err || refused.length > 0) return;
        health.lastError = `the subscription to ${all.join(', ')} failed: ${redactError(err.message, secrets)}`;
        health.lastErrorAt = deps.clock.now();
        deps.logger?.warn({ filters: all, err: redactError(err.message, secrets) }, 'mqtt subscribe failed');
      });
    },
    /** Waits (at most timeoutMs) for the broker to confirm the unsubscription. */
    unsubscribe(filters: string[], timeoutMs = 2000): Promise<void> {
      const c = current();
      if (!c?.connected) return Promise.resolve();
      return new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        c.unsubscribe(filters, () => {
          clearTimeout(t);
          resolve();
        });
      });
    },
  };
}
