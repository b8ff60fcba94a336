// The gateway's domain events: every name on the one event path (core/dispatcher.ts), who
// announces it and who listens. Each part subscribes its listeners where it is composed.
//
//   handoff.finished  sms/settle.ts, before the record is written
//                     -> send health (sms/sending-part.ts), metrics and, after a failed one, the
//                        telephony facts read again at the next ask (status/status-part.ts),
//                        the inbox watcher reads more often for a while (events/inbox-part.ts)
//   message.queued    sms/enqueue.ts, after the queue's commit (for an automatic answer, the inbox's)
//                     -> the hand-off lane looks again (sms/sending-part.ts)
//   message.settled   store/outbox.ts, after the commit that settled the message (the lane's
//                     settler, the sent-box confirmation, expiry, an interrupted hand-off)
//                     -> metrics (status/status-part.ts), MQTT (mqtt/mqtt-gateway.ts)
//   sms.received      store/outbox.ts, after the inbox watcher's commit, which also applied what the
//                     SMS changes (sms/received-effects.ts: the opt-out list, the answers queued)
//                     -> metrics (status/status-part.ts), MQTT (mqtt/mqtt-gateway.ts): they announce
//   opt-out.changed   sms/opt-out-list.ts (through store/opt-outs.ts), after the commit of a change
//                     this gateway made (a keyword, the API)
//                     -> MQTT shares it (mqtt/opt-out-sharing.ts)
//   delivery.due      store/outbox.ts, after the commit, for an event a webhook target is to get
//                     -> webhook delivery wakes (events/events-part.ts)
//   clock.jumped      core/clock-watch.ts (wired in server/compose.ts), inside the first now()
//                     that sees the wall clock move against the monotonic clock, before that
//                     now() returns; listeners must not run work there, only move times and
//                     arm a wake-up
//                     -> the lane and its expiry look again (sms/sending-part.ts); the outbox's
//                        pending times move by the jump and delivery wakes (events/events-part.ts)
import type { ClockEvents } from '../core/clock-watch.js';
import type { Dispatcher } from '../core/dispatcher.js';
import type { SendEvents } from '../sms/send-events.js';
import type { OptOutEvents } from '../store/opt-outs.js';
import type { OutboxEvents } from '../store/outbox.js';

export type GatewayEvents = SendEvents & OutboxEvents & OptOutEvents & ClockEvents;

export type GatewayEventPath = Dispatcher<GatewayEvents>;

/**
 * The listeners above, by event, as the parts subscribe them (`mqtt`: only with MQTT on).
 * test/server/event-path.test.ts fails when the composed gateway has a subscription this
 * map does not name, or lacks one it names.
 */
export const EVENT_LISTENERS: Record<keyof GatewayEvents, { always: readonly string[]; mqtt?: readonly string[] }> = {
  'handoff.finished': { always: ['send health', 'metrics (and the telephony facts)', 'the inbox watcher'] },
  'message.queued': { always: ['the lane'] },
  'message.settled': { always: ['metrics'], mqtt: ['MQTT'] },
  'sms.received': { always: ['metrics'], mqtt: ['MQTT'] },
  'opt-out.changed': { always: [], mqtt: ['MQTT opt-out sharing'] },
  'delivery.due': { always: ['webhook delivery'] },
  'clock.jumped': { always: ['the lane and its expiry', "the outbox's pending times"] },
};
