// The unread count on the Conversations link: how many received SMS (GET /api/inbox, the
// newest 100) have a receivedAt newer than the newest one seen while Conversations was open.
// That mark is kept in localStorage (as key-store.ts keeps a remembered key); the first look
// sets it, so what was there before the console was ever opened does not count; signing out
// forgets it with the key.
import { useState } from 'preact/hooks';
import type { InboxRecord } from '../store/inbox.js';
import { storedKey } from './key-store.js';
import { usePoll } from './poll.js';
import type { Call } from './ui.js';

const MARK = 'sms-gateway-inbox-seen';
const NOTHING_SEEN = new Date(0).toISOString();

/** Forgets the mark (at sign-out, with the key). */
export function forgetUnreadMark() {
  localStorage.removeItem(MARK);
}

/** The newest receivedAt among the rows (ISO 8601 UTC strings compare in time order). */
function newestOf(rows: InboxRecord[]): string | undefined {
  let newest: string | undefined;
  for (const r of rows)
    if (r.receivedAt !== null && (newest === undefined || r.receivedAt > newest)) newest = r.receivedAt;
  return newest;
}

/** The count of received SMS not yet seen; 0 while Conversations is open (it moves the mark). */
export function useUnread(call: Call, signedIn: boolean, open: boolean): number {
  const [count, setCount] = useState(0);
  usePoll(async () => {
    if (!signedIn) return;
    let rows: InboxRecord[];
    try {
      rows = (await call<{ data: InboxRecord[] }>('GET', '/api/inbox?limit=100')).data;
    } catch {
      setCount(0); // the inbox is off or the gateway unreachable: the views say so
      return;
    }
    if (storedKey() === undefined) return; // signed out while the call was under way: keep nothing
    const mark = localStorage.getItem(MARK);
    if (open || mark === null) {
      localStorage.setItem(MARK, newestOf(rows) ?? mark ?? NOTHING_SEEN);
      setCount(0);
      return;
    }
    setCount(rows.filter((r) => r.receivedAt !== null && r.receivedAt > mark).length);
  }, [call, signedIn, open]);
  return open ? 0 : count;
}
