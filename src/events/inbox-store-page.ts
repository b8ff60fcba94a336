// The whole-store page a poll reads when the sent-box confirmation waits for it
// (sms/sms-store-share.ts): termux-sms-list -t all -l 100, every box newest first by date
// (Termux:API's Sms.CONTENT_URI; -t inbox is Sms.Inbox.CONTENT_URI, received messages
// only). Whatever it says goes to the confirmation first. For the inbox it stands in for
// the top inbox page only when nothing new by the watcher's rules can lie below it: it is
// the whole store (not full), or every date on it is readable, it reaches below the recent
// horizon (a message that arrived since the last read is dated above that, so it is on the
// page) and it shows a received message already seen (so the page is not a burst of new
// ones that may go on below). Otherwise the poll reads its inbox page as well, as without
// the confirmation: one call more, never one message less.
import type { listSms, SmsEntry, SmsListResult } from '../device/sms-list.js';

export interface StorePageRead {
  list: typeof listSms;
  pageSize: number;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv | undefined;
  /** Where the read goes first, whatever it says (a failure too). */
  whole: (result: SmsListResult) => void;
}

export interface StorePageJudge {
  /** The earliest date a message that arrived since the last read can carry. */
  recentFrom: number;
  seen: (e: SmsEntry) => boolean;
  dated: (e: SmsEntry) => number | null;
}

/** Whether a whole-store page shows every received message the top inbox page would show as new. */
export function storePageServes(page: SmsEntry[], pageSize: number, judge: StorePageJudge): boolean {
  if (page.length < pageSize) return true;
  const dates = page.map(judge.dated);
  if (dates.some((d) => d === null)) return false;
  if (Math.min(...(dates as number[])) >= judge.recentFrom) return false;
  return page.some((e) => e.type === 'inbox' && judge.seen(e));
}

/** One whole-store read: handed on, then its received messages when it serves as the top page (else null). */
export async function readStorePage(read: StorePageRead, judge: StorePageJudge): Promise<SmsEntry[] | null> {
  const r = await read.list({ box: 'all', limit: read.pageSize, offset: 0, timeoutMs: read.timeoutMs, env: read.env });
  read.whole(r);
  if (!r.ok || !storePageServes(r.entries, read.pageSize, judge)) return null;
  return r.entries.filter((e) => e.type === 'inbox');
}
