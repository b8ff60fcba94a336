// A phone's inbox at the list seam (the Ports' inboxList) for the tests: received SMS kept
// oldest first and paged as termux-sms-list pages them (the newest `limit` below `offset`),
// every call counted, and the reads of the top page apart (one a poll).
import type { SmsEntry, SmsListResult } from '../../src/device/sms-list.js';

/** The phone's date of arrival, to the second, in the test app's zone (UTC), as Termux:API prints it. */
export const phoneDate = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

export function fakeInbox() {
  const entries: SmsEntry[] = [];
  let calls = 0;
  let reads = 0;
  const list = (o: { limit: number; offset?: number }): Promise<SmsListResult> => {
    calls++;
    if ((o.offset ?? 0) === 0) reads++;
    const end = entries.length - (o.offset ?? 0);
    return Promise.resolve({ ok: true, entries: entries.slice(Math.max(0, end - o.limit), Math.max(0, end)) });
  };
  /** An SMS from `from` arrives, dated `at` (ms) on the phone. */
  const receive = (from: string, body: string, at: number) => {
    entries.push({
      id: entries.length + 100,
      threadId: 1,
      type: 'inbox',
      address: from,
      sender: null,
      received: phoneDate(at),
      body,
      read: false,
    });
  };
  return { list, receive, calls: () => calls, reads: () => reads };
}
