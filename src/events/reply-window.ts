// Reply correlation for the inbox (docs/receiving.md, replies): a received SMS replies to the
// newest message sent (status `sent`, or handed off and awaiting its sent-box confirmation)
// to its sender within SMS_GATEWAY_REPLY_WINDOW_HOURS
// before it arrived (its date on the phone, to the end of that second; when it is stored if
// the phone gave no date), so an SMS read after a later send does not answer it (0 = off). The inbox watcher asks this
// in the
// transaction that stores the SMS (inbox-memory.ts), so the stored copy, GET /api/inbox,
// the sms.received event and MQTT all carry the same answer.
import type { InReplyTo, ReplyLookup } from '../store/message-reads.js';

export const HOUR_MS = 3_600_000;

/** What a received SMS from `from`, arrived at `at`, replies to; null when none (or the window is 0). */
export function replyWindow(
  lookup: ReplyLookup,
  windowHours: number,
): (from: string | null, at: number) => InReplyTo | null {
  if (windowHours <= 0) return () => null;
  const windowMs = windowHours * HOUR_MS;
  return (from, at) => lookup.newestSentTo(from, at - windowMs, at);
}
