// Turns new messages in the phone's inbox into sms.received webhook events. Termux:API
// cannot push, so the inbox is polled (termux-sms-list). What was announced is remembered
// by key (SMS-store _id, received time and a hash of sender and text; the newest 5000 in
// `inbox_seen`), so a new message that reuses a deleted message's _id is still announced,
// whatever order the pages come in (termux-sms-list pages by date; how far a poll reads:
// inbox-pages.ts). An entry is new when its key is unseen and its _id is above the
// watermark (the highest _id seen) or it was received after the baseline. The very first poll only records the watermark and the
// baseline time: old messages are never replayed. Events, keys and watermark are written
// in one transaction with the stored copy (store/inbox.ts, for GET /api/inbox), so a crash
// neither loses nor repeats one. forget() drops watermark and baseline: a watcher that was
// off starts afresh, never announcing what arrived while nobody listened.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import { localTimeToMs, type listSms, type SmsEntry } from '../device/sms-list.js';
import { MAX_PAGES, pageReader, type Fetched, type PollFailure } from './inbox-pages.js';
import { createHash } from 'node:crypto';
import type { InboxStore } from '../store/inbox.js';
import type { MetaStore } from '../store/meta.js';
import type { OutboxStore } from '../store/outbox.js';
import { makeEvent } from './events.js';

export const WATERMARK_KEY = 'inbox_watermark';
export const BASELINE_KEY = 'inbox_baseline_at';

export interface InboxWatcherOptions {
  clock: Clock;
  /** Where the watermark and baseline are kept. */
  meta: MetaStore;
  /** Where each announced SMS is kept for GET /api/inbox, with the keys already announced. */
  inbox: InboxStore;
  /** Stores each sms.received event (announced once the poll's transaction committed). */
  outbox: Pick<OutboxStore, 'record'>;
  pollMs: number;
  /** The phone's time zone, asked at every poll (it can change while running). */
  timeZone: () => string;
  env?: NodeJS.ProcessEnv;
  /** Per termux-sms-list call; default min(pollMs, 10 s). */
  timeoutMs?: number;
  list?: typeof listSms;
  logger?: Logger | undefined;
}

export interface InboxHealth {
  lastPollAt: number | null;
  lastOk: boolean | null;
  /** "<failure kind>: <detail>" of the latest failed poll. */
  lastError: string | null;
  lastErrorAt: number | null;
  consecutiveFailures: number;
  watermark: number | null;
  /** sms.received events made since this watcher was created. */
  received: number;
  /** A poll hit the page cap: the next one reads on from this offset (null: none). */
  backlogFrom: number | null;
}

export interface InboxWatcher {
  pollOnce(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
  health(): InboxHealth;
  running(): boolean;
  /** Drops watermark and baseline (call while stopped): the next poll sets a new baseline. */
  forget(): void;
}

type Committed = { watermark: number; made: number; baseline: boolean };

const keyOf = (e: SmsEntry) =>
  `${e.id}|${e.received ?? ''}|${createHash('sha256').update(`${e.address}\u0000${e.body}`).digest('hex').slice(0, 16)}`;

const receivedMs = (e: SmsEntry, tz: string): number | null => {
  try {
    return localTimeToMs(e.received, tz);
  } catch {
    return null; // an unknown zone name must not block the inbox
  }
};

const eventData = (e: SmsEntry, at: number | null) => ({
  smsId: e.id,
  from: e.address,
  contact: e.sender,
  body: e.body,
  receivedAt: at === null ? null : new Date(at).toISOString(),
  receivedLocal: e.received,
  threadId: e.threadId,
  // Termux:API does not say on which SIM an inbound SMS arrived.
  simSlot: null,
});

/** Deduplication: what the watcher remembers (watermark, baseline, announced keys) and what is new. */
function memory(opts: Pick<InboxWatcherOptions, 'meta' | 'inbox'>) {
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
    /** New: never announced, and above the watermark or received after the baseline. */
    isNew(e: SmsEntry, mark: number, baselineAt: number, tz: string) {
      if (opts.inbox.seen(keyOf(e))) return false;
      if (e.id > mark) return true;
      const at = localTimeToMs(e.received, tz);
      return at !== null && at > baselineAt;
    },
  };
}

type Memory = ReturnType<typeof memory>;

/**
 * Storing and announcing: the committed outcome of one poll. The first poll stores a
 * baseline; later ones turn every new entry into a stored SMS and its sms.received event.
 * The watermark is read again inside the transaction (IMMEDIATE: read, then written), so a
 * poll can never emit what another already did. `switchedOnAt`: when start() found no
 * watermark (a fresh or forgotten watcher), the first poll's baseline.
 */
function committer(opts: InboxWatcherOptions, mem: Memory, switchedOnAt: () => number | null) {
  const firstPoll = (highest: number, now: number) => {
    // The baseline is when the watcher was switched on (to the second, as the phone
    // prints times): an SMS that arrived between that and this first read is announced.
    const on = switchedOnAt();
    mem.setWatermark(highest);
    mem.setBaseline(on === null ? now : Math.floor(on / 1000) * 1000 - 1);
  };
  const store = (e: SmsEntry, now: number, tz: string) => {
    const at = receivedMs(e, tz);
    opts.inbox.add({ smsId: e.id, from: e.address, contact: e.sender, body: e.body, receivedAt: at, simSlot: null }, now);
    opts.outbox.record('sms.received', makeEvent('sms.received', eventData(e, at), now), now);
    opts.inbox.markSeen(keyOf(e), now);
  };
  return (entries: SmsEntry[], now: number, tz: string): Committed =>
    opts.inbox.exclusive(() => {
      let mark = mem.watermark();
      const first = mark === null;
      if (mark === null) {
        mark = entries.reduce((m, e) => Math.max(m, e.id), 0);
        firstPoll(mark, now);
      }
      let baselineAt = mem.baseline();
      if (baselineAt === null) {
        // A home from 0.1 (watermark only): the baseline is now; nothing old is replayed.
        baselineAt = now;
        mem.setBaseline(now);
      }
      // In the order they arrived (the phone's time, then _id): GET /api/inbox lists newest first.
      const fresh = entries
        .filter((e) => mem.isNew(e, mark, baselineAt, tz))
        .sort((a, b) => (receivedMs(a, tz) ?? 0) - (receivedMs(b, tz) ?? 0) || a.id - b.id);
      for (const e of fresh) store(e, now, tz);
      const next = Math.max(mark, ...fresh.map((e) => e.id));
      if (next !== mark) mem.setWatermark(next);
      if (fresh.length > 0) opts.inbox.pruneSeen();
      return { watermark: next, made: fresh.length, baseline: first };
    });
}

/** The watcher's health and the log lines of a poll's outcome. */
function pollReport(logger: Logger | undefined, watermark: number | null) {
  const state: InboxHealth = {
    lastPollAt: null,
    lastOk: null,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    watermark,
    received: 0,
    backlogFrom: null,
  };
  const failed = (f: PollFailure, now: number) => {
    const repeated = state.consecutiveFailures > 0 && state.lastError === `${f.kind}: ${f.detail}`;
    state.lastOk = false;
    state.lastError = `${f.kind}: ${f.detail}`;
    state.lastErrorAt = now;
    state.consecutiveFailures++;
    // Once per streak (and when the reason changes): a missing permission would otherwise
    // log a line every poll, all day.
    if (!repeated) logger?.warn({ failure: f.kind, detail: f.detail, consecutiveFailures: state.consecutiveFailures }, 'inbox poll failed');
  };
  return {
    state,
    failed,
    /** A throwing list function or an unwritable database: recorded, tried again next poll. */
    threw(err: unknown, now: number) {
      const e = err as { code?: unknown; message?: unknown };
      const kind = typeof e?.code === 'string' && e.code.startsWith('SQLITE_') ? 'storage' : 'error';
      failed({ kind, detail: String(e?.code ?? e?.message ?? err).slice(0, 300) }, now);
    },
    ok(fetched: Fetched, result: Committed) {
      if (state.consecutiveFailures > 0) logger?.info({ after: state.consecutiveFailures }, 'inbox poll works again');
      state.lastOk = true;
      state.consecutiveFailures = 0;
      state.watermark = result.watermark;
      state.received += result.made;
      state.backlogFrom = fetched.backlogFrom;
      if (fetched.capped) {
        logger?.warn({ pages: MAX_PAGES, from: fetched.backlogFrom, watermark: result.watermark }, 'inbox: more new messages than one poll reads; the next poll reads on from there');
      }
      if (result.baseline) logger?.info({ watermark: result.watermark }, 'inbox watermark set; earlier messages are not replayed');
      if (result.made > 0) logger?.info({ events: result.made, watermark: result.watermark }, 'inbox: new messages');
    },
  };
}

export function createInboxWatcher(opts: InboxWatcherOptions): InboxWatcher {
  const mem = memory(opts);
  const report = pollReport(opts.logger, mem.watermark());
  let switchedOnAt: number | null = null;
  const fetchNew = pageReader(opts, mem.isNew, mem.baseline);
  const commit = committer(opts, mem, () => switchedOnAt);

  const poll = async (): Promise<void> => {
    try {
      const tz = opts.timeZone();
      const fetched = await fetchNew(mem.watermark(), tz);
      if ('kind' in fetched) return report.failed(fetched, opts.clock.now());
      report.ok(fetched, commit(fetched.entries, opts.clock.now(), tz));
    } catch (err) {
      report.threw(err, opts.clock.now());
    } finally {
      report.state.lastPollAt = opts.clock.now();
    }
  };

  let inFlight: Promise<void> | undefined;
  let running = false;

  const pollOnce = (): Promise<void> => {
    // A second caller joins the running poll instead of reading the inbox twice.
    inFlight ??= poll().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  // One poll every pollMs (single flight: a stop() then start() during a poll leaves one loop).
  const loop = createLoop({
    clock: opts.clock,
    run: async () => {
      await pollOnce();
      return opts.pollMs;
    },
    retryMs: opts.pollMs,
    onError: (err) => opts.logger?.error({ err }, 'inbox poll loop failed'),
  });

  return {
    pollOnce,
    start() {
      if (running) return;
      running = true;
      switchedOnAt = mem.watermark() === null ? opts.clock.now() : null;
      loop.start();
      void loop.kick();
    },
    async stop() {
      running = false;
      await loop.stop();
      await inFlight;
    },
    health: () => ({ ...report.state }),
    running: () => running,
    forget() {
      mem.forget();
      report.state.watermark = null;
    },
  };
}
