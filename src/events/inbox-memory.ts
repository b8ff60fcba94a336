// What the inbox watcher remembers and what it commits (inbox-watcher.ts polls): the
// watermark, the baseline and the keys already announced or taken as old at the first poll
// (what is new), and one poll's outcome stored in one transaction: each new SMS kept for
// GET /api/inbox (with what it replies to and the keyword rule it triggers), what it changes
// (sms/received-effects.ts: the opt-out list, the answers it gets queued), its sms.received
// event in the outbox, its key marked seen, the watermark moved on.
import { createHash } from 'node:crypto';
import { localTimeToMs, type SmsEntry } from '../device/sms-list.js';
import type { InboxStore } from '../store/inbox.js';
import type { InReplyTo } from '../store/message-reads.js';
import type { MetaStore } from '../store/meta.js';
import type { OutboxStore } from '../store/outbox.js';
import type { ReceivedEffects } from '../sms/received-effects.js';
import { makeEvent, newEventId, type ReceivedSmsData } from '../store/event-record.js';

export const WATERMARK_KEY = 'inbox_watermark';
export const BASELINE_KEY = 'inbox_baseline_at';

export type Committed = { watermark: number; made: number; baseline: boolean };

const keyOf = (e: SmsEntry) => {
  const textHash = createHash('sha256').update(`${e.address}\u0000${e.body}`).digest('hex').slice(0, 16);
  return `${e.id}|${e.received ?? ''}|${textHash}`;
};

const receivedMs = (e: SmsEntry, tz: string): number | null => {
  try {
    return localTimeToMs(e.received, tz);
  } catch {
    return null; // an unknown zone name must not block the inbox
  }
};

type Reply = InReplyTo | null;

const eventData = (e: SmsEntry, at: number | null, inReplyTo: Reply, keyword: string | null): ReceivedSmsData => ({
  smsId: e.id,
  from: e.address,
  contact: e.sender,
  body: e.body,
  receivedAt: at === null ? null : new Date(at).toISOString(),
  receivedLocal: e.received,
  threadId: e.threadId,
  // Termux:API does not say on which SIM an inbound SMS arrived.
  simSlot: null,
  inReplyTo,
  keyword,
});

/** Deduplication: what the watcher remembers (watermark, baseline, announced keys) and what is new. */
export function memory(opts: { meta: MetaStore; inbox: InboxStore }) {
  const readNumber = (key: string): number | null => {
    const value = opts.meta.get(key);
    if (value === undefined) return null;
    const n = Number(value);
    // An unreadable value is treated like none: a fresh baseline rather than a replay.
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  };
  return {
    watermark: () => readNumber(WATERMARK_KEY),
    baseline: () => readNumber(BASELINE_KEY),
    setWatermark: (n: number) => opts.meta.set(WATERMARK_KEY, String(n)),
    setBaseline: (at: number) => opts.meta.set(BASELINE_KEY, String(at)),
    forget: () =>
      opts.inbox.exclusive(() => {
        opts.meta.delete(WATERMARK_KEY);
        opts.meta.delete(BASELINE_KEY);
      }),
    /** Whether this entry was announced (or taken as old at the baseline). */
    seen: (e: SmsEntry) => opts.inbox.seen(keyOf(e)),
    /**
     * New: never announced, and above the watermark, or (a deleted message's _id reused)
     * received after the baseline; with an unreadable date, when the top page shows it
     * above a message already seen (`aboveSeen`: it sorts newer, so it arrived since).
     */
    isNew: (e: SmsEntry, mark: number, baselineAt: number, tz: string, aboveSeen = false): boolean => {
      if (opts.inbox.seen(keyOf(e))) return false;
      if (e.id > mark) return true;
      const at = receivedMs(e, tz);
      return at === null ? aboveSeen : at > baselineAt;
    },
  };
}

export type Memory = ReturnType<typeof memory>;

/** Where a poll's outcome is committed, and what decides a received SMS's reply and effects. */
interface CommitterOptions {
  inbox: InboxStore;
  outbox: Pick<OutboxStore, 'record'>;
  replyTo?: ((from: string | null, at: number) => InReplyTo | null) | undefined;
  effects?: ReceivedEffects | undefined;
}

/** One new SMS, inside the poll's transaction: its record, its effects, its sms.received event, its key seen. */
function storeReceived(opts: CommitterOptions, e: SmsEntry, now: number, tz: string): void {
  const at = receivedMs(e, tz);
  // What it replies to is decided now, in this transaction (events/reply-window.ts), among what
  // was sent before it arrived: the phone's date is to the second, so up to the end of that second.
  const arrived = at === null ? now : Math.min(now, at + 999);
  const inReplyTo = opts.replyTo?.(e.address, arrived) ?? null;
  // What it changes, in this transaction (sms/received-effects.ts): the opt-out list, its
  // answers; and which keyword rule it triggers: its record and event carry the keyword.
  const eventId = newEventId(now);
  const keyword = opts.effects?.apply({ eventId, from: e.address, body: e.body }).keyword ?? null;
  opts.inbox.add(
    {
      smsId: e.id,
      from: e.address,
      contact: e.sender,
      body: e.body,
      receivedAt: at,
      simSlot: null,
      inReplyTo,
      keyword,
    },
    now,
  );
  const event = makeEvent('sms.received', eventData(e, at, inReplyTo, keyword), now, eventId);
  opts.outbox.record('sms.received', event, now);
  opts.inbox.markSeen(keyOf(e), now);
}

/**
 * Storing and announcing: the committed outcome of one poll. The first poll stores a
 * baseline and takes every message it read as old, judged by _id whatever its date (a
 * phone clock that was ahead leaves messages dated after the start): its keys are marked
 * seen. Only one dated between the switch-on and the end of that read is announced: it
 * arrived meanwhile. Later polls turn every new entry into a stored SMS and its
 * sms.received event. The watermark is read again inside the transaction (IMMEDIATE: read,
 * then written), so a poll can never emit what another already did. `switchedOnAt`: when
 * start() found no watermark (a fresh or forgotten watcher).
 */
export function committer(opts: CommitterOptions, mem: Memory, switchedOnAt: () => number | null) {
  /** The first poll's baseline: when the watcher was switched on (to the second, as the phone prints times). */
  const firstBaseline = (now: number) => {
    const on = switchedOnAt();
    return on === null ? now : Math.floor(on / 1000) * 1000 - 1;
  };
  /** At the first poll: what is dated between the switch-on and now arrived during the read. */
  const arrivedDuringRead = (entries: SmsEntry[], baselineAt: number, now: number, tz: string) =>
    entries.filter((e) => {
      const at = receivedMs(e, tz);
      return at !== null && at > baselineAt && at <= now;
    });
  /** `judgedFrom`: judge against this watermark when lower than the stored one (the read says so: inbox-pages.ts). */
  return (
    entries: SmsEntry[],
    now: number,
    tz: string,
    aboveSeen: ReadonlySet<number> = new Set(),
    judgedFrom?: number,
  ): Committed =>
    opts.inbox.exclusive(() => {
      const stored = mem.watermark();
      const first = stored === null;
      const mark = stored ?? entries.reduce((m, e) => Math.max(m, e.id), 0);
      const judged = judgedFrom === undefined ? mark : Math.min(mark, judgedFrom);
      // A home from 0.1 (watermark only): the baseline is now; nothing old is replayed.
      const baselineAt = first ? firstBaseline(now) : (mem.baseline() ?? now);
      const fresh = first
        ? arrivedDuringRead(entries, baselineAt, now, tz)
        : entries.filter((e) => mem.isNew(e, judged, baselineAt, tz, aboveSeen.has(e.id)));
      if (first) {
        mem.setWatermark(mark);
        // Everything the first poll read is old (but what arrived during it): its keys are marked seen.
        for (const e of entries) opts.inbox.markSeen(keyOf(e), now);
      }
      if (first || mem.baseline() === null) mem.setBaseline(baselineAt);
      // In the order they arrived (the phone's time, then _id): GET /api/inbox lists newest first.
      fresh.sort((a, b) => (receivedMs(a, tz) ?? 0) - (receivedMs(b, tz) ?? 0) || a.id - b.id);
      for (const e of fresh) storeReceived(opts, e, now, tz);
      const next = Math.max(mark, ...fresh.map((e) => e.id));
      if (next !== mark) mem.setWatermark(next);
      if (fresh.length > 0 || first) opts.inbox.pruneSeen();
      return { watermark: next, made: fresh.length, baseline: first };
    });
}
