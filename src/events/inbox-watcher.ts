// Turns new messages in the phone's inbox into sms.received webhook events. Termux:API
// cannot push, so the inbox is polled (termux-sms-list). What was announced is remembered
// by key (SMS-store _id, received time and a hash of sender and text; the newest 5000 in
// `inbox_seen`), so a new message that reuses a deleted message's _id is still announced,
// whatever order the pages come in (termux-sms-list pages by date; how far a poll reads:
// inbox-pages.ts). An entry is new when its key is unseen and its _id is above the
// watermark (the highest _id seen) or it was received after the baseline (a date in any
// digits the phone's locale prints; with an unreadable one, when it sorts above a message
// already seen). The very first poll records the watermark and the baseline and takes every
// message it read as old, judged by _id whatever its date: old messages are never replayed.
// Every poll waits for the phone's time zone to be known (TZ, else the first device probe
// round): before it, the phone's local times would be read in the wrong zone. Events, keys and watermark are written
// in one transaction with the stored copy (store/inbox.ts, for GET /api/inbox), so a crash
// neither loses nor repeats one. forget() drops watermark and baseline: a watcher that was
// off starts afresh, never announcing what arrived while nobody listened. This file polls;
// what is remembered and committed is inbox-memory.ts, the health and log lines inbox-report.ts.
// After a hand-off (afterHandoff(), on `handoff.finished`) and after a poll that found a
// new SMS (a conversation going on) the inbox is read every REPLY_POLL_MS for
// REPLY_WATCH_MS, then at pollMs again (the idle cadence, 30 s by default): a reply then is
// announced within 10 s (docs/receiving.md, replies; docs/design.md, "The phone's battery").
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import type { listSms, SmsListResult } from '../device/sms-list.js';
import { pageReader } from './inbox-pages.js';
import type { InboxStore } from '../store/inbox.js';
import type { MetaStore } from '../store/meta.js';
import type { OutboxStore } from '../store/outbox.js';
import type { InReplyTo } from '../store/message-reads.js';
import { committer, memory } from './inbox-memory.js';
import type { ReceivedEffects } from '../sms/received-effects.js';
import { pollReport, type InboxHealth } from './inbox-report.js';

export { BASELINE_KEY, WATERMARK_KEY } from './inbox-memory.js';
export type { InboxHealth } from './inbox-report.js';

/** After a hand-off or a received SMS the inbox is read this often ... */
export const REPLY_POLL_MS = 5_000;
/** ... for this long. */
export const REPLY_WATCH_MS = 3 * 60_000;

export interface InboxWatcherOptions {
  clock: Clock;
  /** Where the watermark and baseline are kept. */
  meta: MetaStore;
  /** Where each announced SMS is kept for GET /api/inbox, with the keys already announced. */
  inbox: InboxStore;
  /** Stores each sms.received event (announced as `sms.received` once the poll's transaction committed). */
  outbox: Pick<OutboxStore, 'record'>;
  pollMs: number;
  /** The phone's time zone, asked at every poll (it can change while running). */
  timeZone: () => string;
  /** Settles once timeZone() tells the phone's zone (TZ set, or the device probes answered); asked once. */
  timeZoneKnown?: () => Promise<unknown>;
  env?: NodeJS.ProcessEnv;
  /** Per termux-sms-list call; default min(pollMs, 10 s). */
  timeoutMs?: number;
  list?: typeof listSms;
  logger?: Logger | undefined;
  /** What a received SMS replies to, asked in the transaction that stores it (reply-window.ts). */
  replyTo?: ((from: string | null, at: number) => InReplyTo | null) | undefined;
  /** What a received SMS changes, applied in the transaction that stores it (the keyword it triggers is kept). */
  effects?: ReceivedEffects | undefined;
  /**
   * The sent-box confirmation's share of the polls (sms/sms-store-share.ts): told when the next poll is due; asked
   * before each.
   */
  share?: StoreShare | undefined;
}

/** What the watcher tells and asks the confirmation (sms/sms-store-share.ts). */
export interface StoreShare {
  plan(atMono: number | undefined): void;
  wanted(): boolean;
  deliver(result: SmsListResult): void;
}

export interface InboxWatcher {
  pollOnce(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
  health(): InboxHealth;
  running(): boolean;
  /** Drops watermark and baseline (call while stopped): the next poll sets a new baseline. */
  forget(): void;
  /** A send was handed off: while running, read every REPLY_POLL_MS for REPLY_WATCH_MS. */
  afterHandoff(): void;
}

/**
 * When the next poll comes: every REPLY_POLL_MS for REPLY_WATCH_MS after the fast window
 * opens (monotonic), else every pollMs; each plan is told to the share (the confirmation
 * waits for a poll that comes soon).
 */
function pollCadence(clock: Clock, pollMs: number, share: StoreShare | undefined, canServe: () => boolean) {
  let until = 0;
  let plannedAt: number | undefined;
  const plan = (at: number | undefined) => {
    plannedAt = at;
    // A watcher that has never read the inbox (no watermark) reads no whole-store page: the confirmation must not wait
    // for it.
    share?.plan(at !== undefined && canServe() ? at : undefined);
  };
  const fastMs = Math.min(REPLY_POLL_MS, pollMs);
  const open = () => {
    until = clock.monotonicMs() + REPLY_WATCH_MS;
  };
  /** A poll in `ms` unless one is planned sooner (as loop.wakeIn). */
  const soon = (ms: number) => {
    const at = clock.monotonicMs() + ms;
    if (plannedAt === undefined || at < plannedAt) plan(at);
  };
  return {
    open,
    soon,
    /** Opens the window with a poll in REPLY_POLL_MS; returns that delay (for loop.wakeIn). */
    openSoon() {
      open();
      soon(fastMs);
      return fastMs;
    },
    /** After a poll: the ms to the next one. */
    next() {
      const ms = clock.monotonicMs() < until ? fastMs : pollMs;
      plan(clock.monotonicMs() + ms);
      return ms;
    },
    off: () => plan(undefined),
  };
}

/** A look at the sent box is due: the poll reads the whole store and hands that read over. */
const wholeStoreFor = (share: StoreShare | undefined) =>
  share?.wanted() ? (r: SmsListResult) => share.deliver(r) : undefined;

export function createInboxWatcher(opts: InboxWatcherOptions): InboxWatcher {
  const mem = memory(opts);
  const report = pollReport(opts.logger, mem.watermark());
  let switchedOnAt: number | null = null;
  const fetchNew = pageReader(opts, mem);
  const commit = committer(opts, mem, () => switchedOnAt);
  let zoneKnown: Promise<unknown> | undefined;
  const cadence = pollCadence(opts.clock, opts.pollMs, opts.share, () => mem.watermark() !== null);

  const poll = async (): Promise<void> => {
    try {
      // A probe that fails still settles (the zone is then UTC); a rejection must not block the inbox.
      await (zoneKnown ??= (opts.timeZoneKnown?.() ?? Promise.resolve()).catch(() => undefined));
      const tz = opts.timeZone();
      const fetched = await fetchNew(mem.watermark(), tz, wholeStoreFor(opts.share));
      if ('kind' in fetched) return report.failed(fetched, opts.clock.now());
      if (fetched.entries.length > 0) await opts.effects?.loadNumbering();
      const committed = commit(fetched.entries, opts.clock.now(), tz, fetched.aboveSeen, fetched.judgedFrom);
      report.ok(fetched, committed);
      // A conversation: its next message is read as quickly as a reply to a send.
      if (committed.made > 0 && !committed.baseline) cadence.open();
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
      return cadence.next();
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
      cadence.soon(0);
      void loop.kick();
    },
    async stop() {
      running = false;
      cadence.off();
      await loop.stop();
      await inFlight;
    },
    health: () => ({ ...report.state }),
    running: () => running,
    forget() {
      mem.forget();
      report.state.watermark = null;
    },
    afterHandoff() {
      if (!running) return;
      loop.wakeIn(cadence.openSoon());
    },
  };
}
