// The sensors' state for Home Assistant, retained on `<prefix>/<id>/state`: battery and
// Wi-Fi signal as the probes may show them (never older than 5 minutes; no read of its own),
// today's sent and failed counts, the queue's waiting count and the overall diagnostics
// status. Published on connect, after every event and MQTT send, after any read of a device
// fact (whoever asked: a change seen by a /metrics scrape publishes too), and every
// intervalMs (5 minutes: the diagnostics run again, reading the battery and Wi-Fi when their
// readings have aged); only when it changed, except on connect. The last received SMS is
// retained on `<prefix>/<id>/last-received`.
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { WebhookEvent } from '../store/event-record.js';
import { needsAttention } from '../status/check.js';
import type { StatsStore } from '../store/stats.js';
import type { Topics } from './topics.js';

export const STATE_INTERVAL_MS = 300_000;

export interface StateDeps {
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;
  topics: Topics;
  probes: Pick<Probes, 'shown' | 'onRead'>;
  stats: Pick<StatsStore, 'day'>;
  calendar: () => Calendar;
  clock: Clock;
  waiting: () => number;
  /** The diagnostics' overall status and the names of the checks that are not ok. */
  diagnostics: () => Promise<{ status: string; checks: Record<string, { status: string }> }>;
  intervalMs?: number;
}

export function createStatePublisher(deps: StateDeps) {
  let status: string | null = null;
  let problems: string[] = [];
  let last = '';
  let stopListening: (() => void) | undefined;

  const snapshot = () => {
    const snap = deps.probes.shown();
    const today = deps.stats.day(deps.calendar().dayOf(deps.clock.now()));
    return {
      battery: snap.battery.value?.level ?? null,
      wifiSignal: snap.wifi.value?.rssi ?? null,
      sentToday: today.sent,
      failedToday: today.failed,
      waiting: deps.waiting(),
      status,
      problems,
    };
  };

  const publishState = (force = false) => {
    const body = JSON.stringify(snapshot());
    if (!force && body === last) return;
    if (deps.publish(deps.topics.state, body, { qos: 1, retain: true })) last = body;
  };

  const refreshStatus = async () => {
    try {
      const d = await deps.diagnostics();
      status = d.status;
      problems = needsAttention(d.checks); // as `sms-gateway status` lists them
    } catch {
      status = null;
    }
    publishState();
  };

  // Every intervalMs from start(); a slow diagnostics round delays the next, never overlaps it.
  const intervalMs = deps.intervalMs ?? STATE_INTERVAL_MS;
  const loop = createLoop({
    clock: deps.clock,
    run: async () => {
      await refreshStatus();
      return intervalMs;
    },
    retryMs: intervalMs,
    onError: () => undefined, // refreshStatus records its own failure
  });

  return {
    publishState,
    refreshStatus,
    /** On connect: everything retained again (the broker may have lost it). */
    onConnect() {
      last = '';
      publishState(true);
      void refreshStatus();
    },
    onEvent(event: WebhookEvent) {
      if (event.type === 'sms.received') {
        const { from, contact, body: text, receivedAt } = event.data;
        const body = { sender: from, contact, body: text, receivedAt: receivedAt ?? event.createdAt };
        deps.publish(deps.topics.lastReceived, JSON.stringify(body), { qos: 1, retain: true });
      }
      publishState();
    },
    start() {
      stopListening ??= deps.probes.onRead(() => publishState());
      loop.start();
      if (!loop.hasTimer()) loop.wakeIn(intervalMs);
    },
    stop() {
      stopListening?.();
      stopListening = undefined;
      void loop.stop();
    },
  };
}

export type StatePublisher = ReturnType<typeof createStatePublisher>;
