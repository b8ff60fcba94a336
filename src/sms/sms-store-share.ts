// One look at the phone's SMS store for two readers whose times meet: after a hand-off the
// inbox watcher (events/inbox-watcher.ts) reads the inbox every 5 s, and the sent-box
// confirmation (confirmation.ts) looks for that same hand-off at 5, 15, 30 ... s. A look
// the confirmation needs waits (at most a few seconds) for the watcher's next poll, and
// that poll reads the whole store (termux-sms-list -t all: Termux:API's Sms.CONTENT_URI,
// every box, newest first by date) instead of the inbox alone, and hands what it read to
// the confirmation: one Termux:API call serves both. -t inbox lists only received messages
// (Sms.Inbox.CONTENT_URI), so an inbox read can never serve the confirmation; the watcher
// judges whether the whole-store page also serves it (events/inbox-pages.ts), else reads
// its inbox page as well. This file only passes the word between the two; each side keeps
// its own rules. No clock here: times are the monotonic ms the two sides pass.
import type { SmsListResult } from '../device/sms-list.js';

/** What the confirmation offers: whether it wants a look now, and what to do with one. */
export interface StoreReader {
  wanted(): boolean;
  take(result: SmsListResult): void;
}

export function createSmsStoreShare() {
  let plannedAt: number | undefined;
  let reader: StoreReader | undefined;
  return {
    /** The watcher: its next poll is due at this monotonic time (undefined: it is off). */
    plan(atMono: number | undefined) {
      plannedAt = atMono;
    },
    /** The watcher, before a poll: does a reader wait for a look at the whole store? */
    wanted: () => reader?.wanted() ?? false,
    /** The watcher: what its whole-store read said (a failure too), to the reader. */
    deliver(result: SmsListResult) {
      reader?.take(result);
    },
    /** The confirmation: when the watcher polls next (monotonic), if it runs. */
    nextReadAt: () => plannedAt,
    /** The confirmation joins: it is asked and given the whole-store reads from now on. */
    join(r: StoreReader) {
      reader = r;
    },
  };
}

export type SmsStoreShare = ReturnType<typeof createSmsStoreShare>;
