// The bridge's input and output on its current connection (bridge.ts keeps the connection):
// publish, subscribe and unsubscribe, none of which queues anything while disconnected, and
// the redaction of the broker's credentials from the errors they report.
import type { MqttClient } from 'mqtt';
import type { MqttHealth } from '../status/mqtt-check.js';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';

/** An error's message without the URL's credentials or the password. */
export function redactError(message: string, secrets: (string | undefined)[]): string {
  let out = message.replace(/(mqtts?:\/\/)[^@\s/]*@/gi, '$1');
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out.slice(0, 300);
}

/** Publish, subscribe and unsubscribe on the current connection (none: nothing is queued). */
export function createBridgeIo(
  current: () => MqttClient | undefined,
  health: MqttHealth,
  deps: { clock: Clock; logger?: Logger | undefined },
  secrets: (string | undefined)[],
) {
  return {
    /** Publishes now if connected; false (nothing queued) when not. */
    publish(topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }): boolean {
      const client = current();
      if (!client?.connected) return false;
      client.publish(topic, payload, { qos: opts.qos, retain: opts.retain }, (err) => {
        if (err) deps.logger?.debug({ topic, err: redactError(err.message, secrets) }, 'mqtt publish not acknowledged');
      });
      return true;
    },
    /** One SUBSCRIBE for all; `retainedFilters`: the broker gives their retained messages at subscribe (the shared opt-outs). */
    subscribe(filters: string[], retainedFilters: string[] = []) {
      // rh 2: the broker never gives a retained message at subscribe (a send would be given again
      // at every connect); rap: a retained publish keeps its flag, so onMessage can refuse it.
      const map: Record<string, { qos: 1; rh: 0 | 2; rap: true }> = {};
      for (const f of filters) map[f] = { qos: 1, rh: 2, rap: true };
      for (const f of retainedFilters) map[f] = { qos: 1, rh: 0, rap: true };
      const all = [...filters, ...retainedFilters];
      current()?.subscribe(map, (err) => {
        health.subscriptionRefused = null;
        if (!err) return;
        // MQTT.js reports a SUBACK refusal (an ACL) as an error too.
        health.subscriptionRefused = all.join(', ');
        health.lastError = `the broker refused a subscription (${all.join(', ')}): ${redactError(err.message, secrets)}; check its ACLs`;
        health.lastErrorAt = deps.clock.now();
        deps.logger?.warn({ filters: all, err: redactError(err.message, secrets) }, 'mqtt subscribe failed (check the broker ACLs)');
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
