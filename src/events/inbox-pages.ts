// Reading the phone's inbox for the watcher: termux-sms-list pages newest first by date
// (Termux:API: ORDER BY date DESC, -l/-o), so a poll reads pages from the top until it is
// past everything that may be new, at most MAX_PAGES a poll. A page says "read on" when it
// is full and every entry on it is new (a burst), or when it reaches into the recent
// horizon: the dates a message that arrived since the last poll can carry. With the phone's
// clock set back, those sit below messages dated "in the future", so the horizon is taken
// by the monotonic clock too. A poll that hits the cap says so (log, health), and the next
// one reads on from there (a little overlap: a deletion shifts the pages up) until a page
// holds nothing new: nothing is skipped. The first poll (the baseline) reads on while a page
// reaches past its start (messages dated ahead: a phone clock that was ahead), so all of
// them are taken as old. Below that, the deep sweep (inbox-sweep.ts) finds a new _id dated
// older than every page read. The top page also says which entries sort above one already
// seen: with an unreadable date, that is how a reused _id is told from an old message.
// A poll asked to read the whole store (`whole`: the sent-box confirmation waits for it,
// sms/sms-store-share.ts) reads one -t all page instead and hands it on; it serves as the
// top page when it is the whole store, or when its dates are readable, reach below the
// recent horizon and it shows a message already seen (inbox-store-page.ts), else the inbox
// page is read as well. A
// message that page could not show (dated below it: a clock set back) is judged at the
// next inbox read against the watermark from before it, so it is never passed over.
import type { Clock } from '../core/clock.js';
import { listSms, localTimeToMs, type SmsEntry, type SmsListResult } from '../device/sms-list.js';
import { deepSweep } from './inbox-sweep.js';
import { readStorePage, type StorePageJudge } from './inbox-store-page.js';

export const PAGE_SIZE = 100;
export const MAX_PAGES = 10;
/** Entries read again where a capped poll's successor reads on (a deletion shifts pages up). */
export const RESUME_OVERLAP = 10;
/** Margin on the recent horizon (the phone prints seconds; polls take time). */
const HORIZON_SLACK_MS = 60_000;

export type PollFailure = { kind: string; detail: string };
/** `judgedFrom`: the watermark the entries were judged against (lower than the stored one after a whole-store read). */
export type Fetched = {
  entries: SmsEntry[];
  capped: boolean;
  backlogFrom: number | null;
  aboveSeen: Set<number>;
  judgedFrom?: number;
};

export interface PageReaderOptions {
  clock: Clock;
  pollMs: number;
  env?: NodeJS.ProcessEnv | undefined;
  timeoutMs?: number | undefined;
  list?: typeof listSms | undefined;
}

/** Whether an entry is new (never announced and after the watermark or baseline). */
export type IsNew = (e: SmsEntry, mark: number, baselineAt: number, tz: string, aboveSeen?: boolean) => boolean;

/** What the reader asks the watcher's memory (inbox-memory.ts). */
export interface Judge {
  isNew: IsNew;
  seen: (e: SmsEntry) => boolean;
  baseline: () => number | null;
}

const datedIn = (tz: string) => (e: SmsEntry) => {
  try {
    return localTimeToMs(e.received, tz);
  } catch {
    return null;
  }
};

/**
 * The ids on a page (printed oldest first) that sort above an entry already seen; only asked when a date is unreadable.
 */
function aboveSeenOn(page: SmsEntry[], judge: Judge, dated: (e: SmsEntry) => number | null): Set<number> {
  const out = new Set<number>();
  if (page.every((e) => dated(e) !== null)) return out;
  let below = false;
  for (const e of page) {
    if (below) out.add(e.id);
    else below = judge.seen(e);
  }
  return out;
}

/** The reads the reader makes of the phone: an inbox page at an offset, the deep sweep below, the whole store. */
function pageSource(opts: PageReaderOptions) {
  const list = opts.list ?? listSms;
  const timeoutMs = opts.timeoutMs ?? Math.min(opts.pollMs, 10_000);
  const sweep = deepSweep({
    clock: opts.clock,
    list,
    timeoutMs,
    env: opts.env,
    firstOffset: PAGE_SIZE - RESUME_OVERLAP,
    overlap: RESUME_OVERLAP,
  });
  return {
    inboxPage: (offset: number) => list({ box: 'inbox', limit: PAGE_SIZE, offset, timeoutMs, env: opts.env }),
    sweep,
    storePage: (whole: (r: SmsListResult) => void, judge: StorePageJudge) =>
      readStorePage({ list, pageSize: PAGE_SIZE, timeoutMs, env: opts.env, whole }, judge),
  };
}

/** What one poll judges its pages by. `mark`: the watermark judged against, null at the baseline. */
interface PollView {
  judge: Judge;
  mark: number | null;
  baselineAt: number;
  tz: string;
  now: number;
  recentFrom: number;
  resuming: boolean;
  dated: (e: SmsEntry) => number | null;
}

/** A full page may have more that is new below it. */
function readsOn(page: SmsEntry[], view: PollView, aboveSeen: ReadonlySet<number>): boolean {
  const { judge, mark, baselineAt, tz } = view;
  if (page.length < PAGE_SIZE) return false;
  // Dates run newest first: the page's oldest entry tells how far down it reaches.
  const oldest = Math.min(...page.map((e) => view.dated(e) ?? -Infinity));
  // The baseline: on while messages dated after the start may lie below (all old).
  if (mark === null) return oldest >= view.now - HORIZON_SLACK_MS;
  const fresh = page.filter((e) => judge.isNew(e, mark, baselineAt, tz, aboveSeen.has(e.id))).length;
  // Reading on below a cap: until a page holds nothing new.
  if (view.resuming) return fresh > 0;
  if (fresh === page.length) return true;
  return oldest >= view.recentFrom;
}

export function pageReader(opts: PageReaderOptions, judge: Judge) {
  const source = pageSource(opts);
  let backlogFrom: number | null = null; // a capped poll's successor reads on from here
  let last: { wall: number; mono: number } | null = null; // the previous complete read
  let floor: number | null = null; // the watermark before whole-store reads stood in for the top page

  /** The earliest date a message that arrived since the last read can carry (either clock). */
  const horizon = (now: number, mono: number) =>
    (last === null ? now : Math.min(last.wall, now - (mono - last.mono))) - HORIZON_SLACK_MS;

  /** `whole`: read the whole store for the top page and hand that read on (the sent-box confirmation waits). */
  return async (
    stored: number | null,
    tz: string,
    whole?: (r: SmsListResult) => void,
  ): Promise<Fetched | PollFailure> => {
    const now = opts.clock.now();
    const mono = opts.clock.monotonicMs();
    const baselineAt = judge.baseline() ?? now;
    const recentFrom = horizon(now, mono);
    const resuming = backlogFrom !== null;
    const start = backlogFrom ?? 0;
    const dated = datedIn(tz);
    if (stored === null) floor = null;
    // After whole-store reads, judged against the watermark from before them: what they could not show is still new.
    const mark = stored === null || floor === null ? stored : Math.min(stored, floor);
    const judgedFrom = mark ?? undefined;
    if (whole && mark !== null && !resuming) {
      const served = await source.storePage(whole, { recentFrom, seen: judge.seen, dated });
      if (served) {
        last = { wall: now, mono };
        floor = mark;
        return { entries: served, capped: false, backlogFrom: null, aboveSeen: new Set(), judgedFrom };
      }
    }
    let aboveSeen = new Set<number>();
    const view: PollView = { judge, mark, baselineAt, tz, now, recentFrom, resuming, dated };
    // Messages arriving between two page reads shift the pages: an entry may show up
    // twice, never be skipped. The map drops the duplicates.
    const byId = new Map<number, SmsEntry>();
    let topFull = false;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await source.inboxPage(start + page * PAGE_SIZE);
      if (!r.ok) return { kind: r.failure, detail: r.detail };
      // Only received messages, whatever else an older Termux:API or a filter lets through.
      for (const e of r.entries) if (e.type === 'inbox') byId.set(e.id, e);
      if (page === 0 && !resuming) {
        last = { wall: now, mono }; // the top was read: the next horizon
        topFull = r.entries.length >= PAGE_SIZE;
        if (mark !== null) aboveSeen = aboveSeenOn(r.entries, judge, dated);
      }
      if (!readsOn(r.entries, view, aboveSeen)) {
        backlogFrom = null;
        // The deep sweep only adds new _ids: a deep old message is never judged by its date.
        if (mark !== null && !resuming)
          for (const e of await source.sweep.step(topFull)) if (e.id > mark) byId.set(e.id, e);
        // The top inbox page was read through: nothing a whole-store read stood in for is left unjudged.
        if (!resuming) floor = null;
        return { entries: [...byId.values()], capped: false, backlogFrom, aboveSeen, judgedFrom };
      }
    }
    // The baseline takes what it read as old and moves on: the sweep covers the rest.
    backlogFrom = mark === null ? null : start + MAX_PAGES * PAGE_SIZE - RESUME_OVERLAP;
    return { entries: [...byId.values()], capped: backlogFrom !== null, backlogFrom, aboveSeen, judgedFrom };
  };
}
