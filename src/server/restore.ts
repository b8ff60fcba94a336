// Start step 1, before the first request: the state a start needs, in this order:
//   a. the stored env webhook targets become SMS_GATEWAY_WEBHOOK_URLS (before b: the events
//      of the messages settled there go to today's targets); a switched-off inbox watcher
//      forgets where it was
//   b. messages a crash interrupted during their hand-off: what is left of the hand-off's
//      process group is ended (same boot only), then, in real mode, they are looked for in
//      the phone's sent box (sms/confirmation.ts); otherwise failed/interrupted. Never resent
//   c. the pacing seeded from the hand-offs of the last minute (a restart resets nothing)
import type { Logger } from 'pino';
import type { EventsPart } from '../events/events-part.js';
import type { InboxPart } from '../events/inbox-part.js';
import { BUDGET_WINDOW_MS } from '../sms/pacing.js';
import type { SendingPart } from '../sms/sending-part.js';
import { recoverHandoffs, type RecoverDeps } from './recover-handoffs.js';

export interface RestoreDeps {
  webhooks: Pick<EventsPart, 'syncTargets'>;
  inbox: Pick<InboxPart, 'restore'>;
  sending: Pick<SendingPart, 'messages' | 'confirmer' | 'pacing'>;
  endLeftover: RecoverDeps['endLeftover'];
  logger?: Logger | undefined;
}

export function restore(deps: RestoreDeps, now: number): void {
  const { sending, logger } = deps;
  deps.webhooks.syncTargets(now);
  deps.inbox.restore();
  recoverHandoffs(
    { messages: sending.messages, confirmer: sending.confirmer, endLeftover: deps.endLeftover, logger },
    now,
  );
  sending.pacing.seed(
    sending.messages
      .handoffsSince(now - BUDGET_WINDOW_MS)
      .map((h) => ({ ageMs: now - h.at, segments: h.segments, queued: h.via === 'queue' })),
  );
}
