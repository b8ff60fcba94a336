// Turns new messages in the phone's inbox into sms.received webhook events. Termux:API
// cannot push, so the inbox is polled (termux-sms-list). What was announced is remembered
// by key (SMS-store _id, received time and a hash of sender and text; the newest 5000 in
// `inbox_seen`), so a new message that reuses a deleted message's _id is still announced,
// whatever order the pages come in (termux-sms-list pages by date). An entry is new when
// its key is unseen and its _id is above the watermark (the highest _id seen) or it was
// received after the baseline. The very first poll only records the watermark and the
// baseline time: old messages are never replayed. Events, keys and watermark are written
// in one transaction with the stored copy (store/inbox.ts, for GET /api/inbox), so a crash
// neither loses nor repeats one. forget() drops watermark and baseline: a watcher that was
// off starts afresh, never announcing what arrived while nobody listened.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import { listSms, localTimeToMs, type SmsEntry } from '../device/sms-list.js';
import { createHash } from 'node:crypto';
import type { Db } from '../store/database.js';
import type { InboxStore } from '../store/inbox.js';
import { makeEvent } from './events.js';
import type { OutboxStore } from './outbox.js';

export const WATERMARK_KEY = 'inbox_watermark';
export const BASELINE_KEY = 'inbox_baseline_at';
/** Announced keys kept (newest first); far more than one poll can read (MAX_PAGES x PAGE_SIZE). */
export const SEEN_KEPT = 5000;
export const PAGE_SIZE = 100;
export const MAX_PAGES = 10;

export interface InboxWatcherOptions {
  db: Db;
  clock: Clock;
  outbox: OutboxStore;
  /** Where each announced SMS is kept for GET /api/inbox. */
  inbox: InboxStore;
  /** Called after new events were committed (wakes the webhook delivery). */
  notify: () => void;
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

type PollFailure = { kind: string; detail: string };

export function createInboxWatcher(opts: InboxWatcherOptions): InboxWatcher {
  const list = opts.list ?? listSms;
  const timeoutMs = opts.timeoutMs ?? Math.min(opts.pollMs, 10_000);
  const { db, logger } = opts;

  const readStmt = db.prepare(`SELECT value FROM meta WHERE key = @key`);
  const writeStmt = db.prepare(
    `INSERT INTO meta (key, value) VALUES (@key, @value) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  const forgetStmt = db.prepare(`DELETE FROM meta WHERE key IN (@a, @b)`);

  const seenStmt = db.prepare(`SELECT 1 FROM inbox_seen WHERE key = @key`);
  const markSeenStmt = db.prepare(`INSERT OR IGNORE INTO inbox_seen (key, seen_at) VALUES (@key, @at)`);
  const pruneSeenStmt = db.prepare(
    `DELETE FROM inbox_seen WHERE key IN (SELECT key FROM inbox_seen ORDER BY seen_at DESC, rowid DESC LIMIT -1 OFFSET ${SEEN_KEPT})`,
  );

  const readNumber = (key: string): number | null => {
    const row = readStmt.get({ key }) as { value: string } | undefined;
    if (!row) return null;
    const n = Number(row.value);
    // An unreadable value is treated like none: a fresh baseline rather than a replay.
    return Number.isSafeInteger(n) && n >= 0 ? n : null;
  };
  const readWatermark = () => readNumber(WATERMARK_KEY);

  const keyOf = (e: SmsEntry) =>
    `${e.id}|${e.received ?? ''}|${createHash('sha256').update(`${e.address}\u0000${e.body}`).digest('hex').slice(0, 16)}`;

  /** New: never announced, and above the watermark or received after the baseline. */
  const isNew = (e: SmsEntry, mark: number, baselineAt: number, tz: string) => {
    if (seenStmt.get({ key: keyOf(e) })) return false;
    if (e.id > mark) return true;
    const at = localTimeToMs(e.received, tz);
    return at !== null && at > baselineAt;
  };

  const state: InboxHealth = {
    lastPollAt: null,
    lastOk: null,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    watermark: readWatermark(),
    received: 0,
  };

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

  /**
   * The committed outcome of one poll: the first poll stores a baseline; later ones turn
   * every entry above the watermark into an event. The watermark is read again inside the
   * transaction, so a poll can never emit what another already did.
   */
  /** When start() found no watermark (a fresh or forgotten watcher): the first poll's baseline. */
  let switchedOnAt: number | null = null;

  const commit = db
    .transaction((entries: SmsEntry[], now: number, tz: string) => {
      let mark = readWatermark();
      const highest = entries.reduce((m, e) => Math.max(m, e.id), 0);
      let first = false;
      if (mark === null) {
        // The baseline is when the watcher was switched on (to the second, as the phone
        // prints times): an SMS that arrived between that and this first read is announced.
        const base = switchedOnAt === null ? now : Math.floor(switchedOnAt / 1000) * 1000 - 1;
        writeStmt.run({ key: WATERMARK_KEY, value: String(highest) });
        writeStmt.run({ key: BASELINE_KEY, value: String(base) });
        mark = highest;
        first = true;
      }
      let baselineAt = readNumber(BASELINE_KEY);
      if (baselineAt === null) {
        // A home from 0.1 (watermark only): the baseline is now; nothing old is replayed.
        baselineAt = now;
        writeStmt.run({ key: BASELINE_KEY, value: String(now) });
      }
      // In the order they arrived (the phone's time, then _id): GET /api/inbox lists newest first.
      const fresh = entries
        .filter((e) => isNew(e, mark, baselineAt, tz))
        .sort((a, b) => (receivedMs(a, tz) ?? 0) - (receivedMs(b, tz) ?? 0) || a.id - b.id);
      for (const e of fresh) {
        const at = receivedMs(e, tz);
        opts.inbox.add({ smsId: e.id, from: e.address, contact: e.sender, body: e.body, receivedAt: at, simSlot: null }, now);
        opts.outbox.enqueue(makeEvent('sms.received', eventData(e, at), now), now);
        markSeenStmt.run({ key: keyOf(e), at: now });
      }
      const next = Math.max(mark, ...fresh.map((e) => e.id));
      if (next !== mark) writeStmt.run({ key: WATERMARK_KEY, value: String(next) });
      if (fresh.length > 0) pruneSeenStmt.run();
      return { watermark: next, made: fresh.length, baseline: first };
    })
    // IMMEDIATE: the watermark is read and then written; take the write lock first.
    .immediate;

  /** Newest pages first until one holds something already seen (or is short), at most MAX_PAGES. */
  const fetchNew = async (mark: number | null, tz: string): Promise<{ entries: SmsEntry[]; capped: boolean } | PollFailure> => {
    const baselineAt = readNumber(BASELINE_KEY) ?? opts.clock.now();
    // Messages arriving between two page reads shift the pages: an entry may show up
    // twice, never be skipped. The map drops the duplicates.
    const byId = new Map<number, SmsEntry>();
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await list({ box: 'inbox', limit: PAGE_SIZE, offset: page * PAGE_SIZE, timeoutMs, env: opts.env });
      if (!r.ok) return { kind: r.failure, detail: r.detail };
      // Only received messages, whatever else an older Termux:API or a filter lets through.
      for (const e of r.entries) if (e.type === 'inbox') byId.set(e.id, e);
      // Pages come newest first by date: a page that is all new may have more below it.
      const allNew = mark !== null && r.entries.length >= PAGE_SIZE && r.entries.every((e) => isNew(e, mark, baselineAt, tz));
      if (!allNew) return { entries: [...byId.values()], capped: false };
    }
    return { entries: [...byId.values()], capped: true };
  };

  const fail = (f: PollFailure, now: number) => {
    const repeated = state.consecutiveFailures > 0 && state.lastError === `${f.kind}: ${f.detail}`;
    state.lastOk = false;
    state.lastError = `${f.kind}: ${f.detail}`;
    state.lastErrorAt = now;
    state.consecutiveFailures++;
    // Once per streak (and when the reason changes): a missing permission would otherwise
    // log a line every poll, all day.
    if (!repeated) logger?.warn({ failure: f.kind, detail: f.detail, consecutiveFailures: state.consecutiveFailures }, 'inbox poll failed');
  };

  const poll = async (): Promise<void> => {
    try {
      const tz = opts.timeZone();
      const fetched = await fetchNew(readWatermark(), tz);
      if ('kind' in fetched) {
        fail(fetched, opts.clock.now());
        return;
      }
      const now = opts.clock.now();
      const result = commit(fetched.entries, now, tz);
      if (state.consecutiveFailures > 0) logger?.info({ after: state.consecutiveFailures }, 'inbox poll works again');
      state.lastOk = true;
      state.consecutiveFailures = 0;
      state.watermark = result.watermark;
      state.received += result.made;
      if (fetched.capped) {
        logger?.warn({ pages: MAX_PAGES, watermark: result.watermark }, 'inbox: more new messages than one poll reads; older ones were skipped');
      }
      if (result.baseline) logger?.info({ watermark: result.watermark }, 'inbox watermark set; earlier messages are not replayed');
      if (result.made > 0) {
        logger?.info({ events: result.made, watermark: result.watermark }, 'inbox: new messages');
        opts.notify();
      }
    } catch (err) {
      // A throwing list function or an unwritable database: recorded, tried again next poll.
      const e = err as { code?: unknown; message?: unknown };
      const kind = typeof e?.code === 'string' && e.code.startsWith('SQLITE_') ? 'storage' : 'error';
      fail({ kind, detail: String(e?.code ?? e?.message ?? err).slice(0, 300) }, opts.clock.now());
    } finally {
      state.lastPollAt = opts.clock.now();
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
    onError: (err) => logger?.error({ err }, 'inbox poll loop failed'),
  });

  return {
    pollOnce,
    start() {
      if (running) return;
      running = true;
      switchedOnAt = readWatermark() === null ? opts.clock.now() : null;
      loop.start();
      void loop.kick();
    },
    async stop() {
      running = false;
      await loop.stop();
      await inFlight;
    },
    health: () => ({ ...state }),
    running: () => running,
    forget() {
      forgetStmt.run({ a: WATERMARK_KEY, b: BASELINE_KEY });
      state.watermark = null;
    },
  };
}
