// What the send pipeline announces on the gateway's event path (core/dispatcher.ts); the
// whole map, with every emitter and listener, is events/domain-events.ts.
import type { FinishedHandoff } from './handoff.js';

export interface SendEvents {
  /** A hand-off finished, before its record is written (sms/settle.ts). */
  'handoff.finished': FinishedHandoff;
  /** Queued messages were committed (sms/enqueue.ts): the lane looks again. */
  'message.queued': { ids: string[] };
}
