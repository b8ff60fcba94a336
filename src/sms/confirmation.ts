// Sent-box confirmation (real mode): after a successful hand-off the message stays queued
// while the gateway looks for it in the phone's SMS store (termux-sms-list) for up to
// 2 minutes: found as sent -> sent; found as failed -> failed/not_in_sent_box; not found
// in time, or the store cannot be read -> sent/unconfirmed. The state that matters (queued
// with handed_off_at set) is in the database, so a restart resumes the pending checks.
// A hand-off a crash interrupted (begun, never finished) is looked for the same way for
// RECOVERY_WINDOW_MS after the start: found as sent -> sent; as failed -> failed; still in
// the phone's outbox -> sent/unconfirmed (Android has it); not found, or the store cannot
// be read -> failed/interrupted. One termux-sms-list call serves every message awaiting
// confirmation: those due are judged, the others settle if found (sent or failed) and keep
// their schedule otherwise; and lists are at least LIST_EVERY_MS apart, so a queue draining
// at one message a second costs one list per window, not one per message. When the inbox
// watcher polls within SHARE_WAIT_MS of a due look, the look waits for that poll, which
// reads the whole store for both (sms-store-share.ts): at most MAX_SHARE_WAIT_MS, then it
// lists on its own.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import { listSms, type SmsListResult } from '../device/sms-list.js';
import type { MessageRow, MessageStore, Settlement } from '../store/messages.js';
import { nextAt, verdict, windowEnd, type Pending } from './sent-box-verdict.js';
import type { SmsStoreShare } from './sms-store-share.js';

export { CONFIRM_WINDOW_MS, RECOVERY_WINDOW_MS } from './sent-box-verdict.js';

const ERROR_PAUSE_MS = 30_000;
/** Two looks at the SMS store are at least this far apart. */
export const LIST_EVERY_MS = 5_000;
/** One read of the phone's SMS store (termux-sms-list) may take this long. */
const SENT_BOX_READ_TIMEOUT_MS = 10_000;
/** A due look waits for the inbox watcher's poll when it comes within this (it reads for both) ... */
export const SHARE_WAIT_MS = 5_000;
/** ... and after it this long for its answer (a read takes a second or two on a phone) ... */
const SHARE_GRACE_MS = 3_000;
/** ... but never longer than this in all: then it lists on its own. */
export const MAX_SHARE_WAIT_MS = 15_000;
/** The watcher's poll reads for a look due this soon after it (its answer settles what it finds). */
const SHARE_AHEAD_MS = 1_000;

export interface ConfirmerOptions {
  store: MessageStore;
  clock: Clock;
  timeZone: () => string;
  env?: NodeJS.ProcessEnv | undefined;
  timeoutMs?: number;
  list?: typeof listSms;
  logger?: Logger | undefined;
  /** The inbox watcher's polls, which read the whole store for a due look when told. */
  share?: Pick<SmsStoreShare, 'nextReadAt' | 'join'> | undefined;
}

/** One read of the phone's SMS store for every message awaiting confirmation: the due ones are
 * judged (found, failed, or not found at the end of their window); the others settle only on a
 * clear answer (found as sent or failed), else keep their own schedule. */
async function lookAt(
  opts: ConfirmerOptions,
  pending: Map<string, Pending>,
  due: Set<string>,
  settle: (row: MessageRow, s: Omit<Settlement, 'at' | 'handedOff'>, handedOff?: boolean) => void,
  offered?: SmsListResult,
): Promise<void> {
  const list = opts.list ?? listSms;
  const result =
    offered ??
    (await list({
      box: 'all',
      limit: 50,
      timeoutMs: opts.timeoutMs ?? SENT_BOX_READ_TIMEOUT_MS,
      ...(opts.env ? { env: opts.env } : {}),
    }));
  // Only a read that worked is matched against, so only then are its entries' claims asked.
  const claimed = result.ok ? opts.store.claimedSmsStoreIds(result.entries.map((e) => e.id)) : new Set<number>();
  const tz = opts.timeZone();
  // Every message awaiting confirmation, oldest first (pending keeps insertion order).
  for (const [id, p] of [...pending]) {
    const isDue = due.has(id);
    // Not due yet: only a clear answer (found as sent or failed) settles it now.
    if (!isDue && !result.ok) continue;
    const row = opts.store.get(id);
    if (!row || row.status !== 'queued') {
      pending.delete(id);
      continue;
    }
    if (isDue) p.checks++;
    const v = verdict(row, p, result, claimed, tz, isDue && opts.clock.now() >= windowEnd(p));
    if (v) settle(row, v.s, v.handedOff);
  }
}

/** The confirmer's state, shared by its rounds and its handle. */
interface Watch {
  /** By message id: since when it is looked for, how often it was, and why. */
  pending: Map<string, Pending>;
  stopped: boolean;
  /** After a failed round (e.g. the database cannot be written), wait before the next. */
  pauseUntil: number;
  /** When the SMS store was last looked at (monotonic), for LIST_EVERY_MS. */
  listedAt: number;
  /** A whole-store read the inbox watcher made for us, not looked at yet. */
  offered: SmsListResult | undefined;
  /** Since when a due look waits for the watcher's poll (monotonic), and until when this time. */
  waitingSince: number | null;
  waitUntil: number;
}

/** A due look waits for the watcher's poll when one comes soon (true), else lists now (false). */
function waitForShare(opts: ConfirmerOptions, watch: Watch): boolean {
  const at = opts.share?.nextReadAt();
  const mono = opts.clock.monotonicMs();
  if (at === undefined || at - mono > SHARE_WAIT_MS) return false;
  watch.waitingSince ??= mono;
  if (mono - watch.waitingSince >= MAX_SHARE_WAIT_MS) return false;
  watch.waitUntil = Math.min(Math.max(at, mono) + SHARE_GRACE_MS, watch.waitingSince + MAX_SHARE_WAIT_MS);
  return true;
}

/** One round: if any message is due, one look at the SMS store for all of them (lookAt). */
async function checkDueOnce(opts: ConfirmerOptions, watch: Watch): Promise<void> {
  const { pending } = watch;
  const now = opts.clock.now();
  const due = new Set([...pending.entries()].filter(([, p]) => nextAt(p) <= now).map(([id]) => id));
  const { offered } = watch;
  watch.offered = undefined;
  if (!offered && due.size > 0 && waitForShare(opts, watch)) return;
  watch.waitingSince = null;
  watch.waitUntil = 0;
  if (due.size === 0 && !offered) return;
  watch.listedAt = opts.clock.monotonicMs();
  const settle = (row: MessageRow, s: Omit<Settlement, 'at' | 'handedOff'>, handedOff = true) => {
    opts.store.settle(row.id, { ...s, at: opts.clock.now(), handedOff });
    pending.delete(row.id);
    opts.logger?.info({ id: row.id, status: s.status, reason: s.reason }, 'sms confirmation settled');
  };
  await lookAt(opts, pending, due, settle, offered);
}

/** Ms until the next check is due (not before a pause ends); undefined when idle: no timer. */
function nextWaitMs(opts: ConfirmerOptions, watch: Watch): number | undefined {
  if (watch.stopped || watch.pending.size === 0) return undefined;
  const now = opts.clock.now();
  const mono = opts.clock.monotonicMs();
  const nextList = watch.listedAt + LIST_EVERY_MS - mono;
  return Math.max(
    0,
    Math.min(...[...watch.pending.values()].map(nextAt)) - now,
    watch.pauseUntil - now,
    nextList,
    watch.waitUntil - mono,
  );
}

export function createConfirmer(opts: ConfirmerOptions) {
  const watch: Watch = {
    pending: new Map(),
    stopped: false,
    pauseUntil: 0,
    listedAt: -Infinity,
    offered: undefined,
    waitingSince: null,
    waitUntil: 0,
  };
  const { pending } = watch;
  const checkDue = () => checkDueOnce(opts, watch);
  const nextWait = () => nextWaitMs(opts, watch);

  const loop = createLoop({
    clock: opts.clock,
    async run() {
      try {
        await checkDue();
      } catch (err) {
        watch.pauseUntil = opts.clock.now() + ERROR_PAUSE_MS;
        opts.logger?.error({ err }, 'sms confirmation failed; trying again in 30 s');
      }
      return nextWait();
    },
    retryMs: ERROR_PAUSE_MS,
    onError: (err) => opts.logger?.error({ err }, 'sms confirmation failed; trying again in 30 s'),
  });
  const schedule = () => {
    const wait = nextWait();
    if (wait !== undefined) loop.wakeIn(wait);
  };
  // The watcher's poll reads for us when a look is due (or nearly): what it read comes back here.
  opts.share?.join({
    wanted: () =>
      !watch.stopped &&
      watch.pauseUntil <= opts.clock.now() &&
      [...pending.values()].some((p) => nextAt(p) <= opts.clock.now() + SHARE_AHEAD_MS),
    take(result) {
      if (watch.stopped) return;
      watch.offered = result;
      void loop.kick();
    },
  });

  return {
    track(id: string) {
      const row = opts.store.get(id);
      if (!row || row.handedOffAt === null) return;
      pending.set(id, { since: row.handedOffAt, checks: 0, recovering: false });
      schedule();
    },
    /**
     * At start, before the lane runs: hand-offs a crash interrupted (their process groups
     * already ended) are looked for from now on, for RECOVERY_WINDOW_MS.
     */
    adopt(rows: MessageRow[]) {
      const now = opts.clock.now();
      for (const row of rows) pending.set(row.id, { since: now, checks: 0, recovering: true });
    },
    /** True while an interrupted hand-off's outcome is still being looked for. */
    recovering: (id: string) => pending.get(id)?.recovering === true,
    /** Resumes the checks of messages handed off before a restart. */
    start() {
      watch.stopped = false;
      loop.start();
      for (const row of opts.store.awaitingConfirmation()) {
        pending.set(row.id, { since: row.handedOffAt!, checks: 0, recovering: false });
      }
      schedule();
    },
    checkDue,
    async stop() {
      watch.stopped = true;
      await loop.stop();
    },
    pending: () => pending.size,
    hasTimer: () => loop.hasTimer(),
  };
}

export type Confirmer = ReturnType<typeof createConfirmer>;
