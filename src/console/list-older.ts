// Older conversations, read when asked ("Load older conversations" at the end of the thread
// list). Conversations reads the newest 100 received and 100 sent messages, so a number whose
// messages are all older is in neither; each click reads the next 100 of each list that goes
// on (two requests at most): GET /api/inbox?limit=100&offset=<received held> (in arrival
// order) and GET /api/messages?until=<just after the oldest sent of the view's read at the
// first click>&limit=100&offset=<n> (until fixed: new sends do not shift the offsets; n starts
// past the messages of that millisecond already read). From
// the first click on, every read of the view is folded in: what was read stays however many
// new messages push it out of the newest 100, and new arrivals move the inbox offset on.
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';
import { readNext, sentUntil, withOlder, type Beyond, type Older } from './older.js';
import type { Call } from './ui.js';

const PAGE = 100;

/** Before the first click: the view's read as held, each list going on where the read ends. */
export function startListOlder(received: InboxRecord[], sent: MessageRecord[], beyond: Beyond): Older {
  const until = sentUntil(beyond);
  return {
    received,
    sent,
    receivedOffset: beyond.receivedMore ? received.length : null,
    // Past those of the oldest one's millisecond already read (the page begins with that millisecond).
    sentOffset: until ? sent.filter((m) => m.createdAt === beyond.sentBefore).length : null,
    sentUntil: until,
    receivedFrom: beyond.receivedBefore,
    sentFrom: beyond.sentBefore,
  };
}

/** The next 100 of each list that goes on. */
export function loadListOlder(call: Call, o: Older): Promise<Older> {
  return readNext(call, o, {
    received: (offset) => `/api/inbox?limit=${PAGE}&offset=${offset}`,
    sent: (offset) => `/api/messages?until=${encodeURIComponent(o.sentUntil)}&limit=${PAGE}&offset=${offset}`,
  });
}

/**
 * A newer read of the view folded in (its copies first): each received SMS not held yet arrived since, one place
 * further down the inbox.
 */
export function foldRead(o: Older, received: InboxRecord[], sent: MessageRecord[]): Older {
  const held = new Set(o.received.map((m) => m.id));
  const arrived = received.filter((m) => !held.has(m.id)).length;
  return {
    ...o,
    received: withOlder(received, [o.received]),
    sent: withOlder(sent, [o.sent]),
    receivedOffset: o.receivedOffset === null ? null : o.receivedOffset + arrived,
  };
}

/** What the held messages leave out, as a thread's "Load older" starts from it. */
export const reachOf = (o: Older): Beyond => ({
  receivedMore: o.receivedOffset !== null,
  sentBefore: o.sentOffset === null ? null : o.sentFrom,
  receivedBefore: o.receivedOffset === null ? null : o.receivedFrom,
});
