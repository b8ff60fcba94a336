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
// at one message a second costs one list per window, not one per message.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import { listSms, localTimeToMs, sameNumber, type SmsEntry } from '../device/sms-list.js';
import type { MessageRow, MessageStore, Settlement } from '../store/messages.js';

export const CONFIRM_WINDOW_MS = 120_000;
/** When to look, counted from the hand-off. */
const CHECK_AT_MS = [5_000, 15_000, 30_000, 60_000, 90_000, CONFIRM_WINDOW_MS];
/**
 * An interrupted hand-off's process group was ended at the start, so whatever reached the
 * phone is in its SMS store within seconds (as outbox, then sent or failed).
 */
export const RECOVERY_WINDOW_MS = 30_000;
const RECOVERY_CHECK_AT_MS = [5_000, 15_000, RECOVERY_WINDOW_MS];
/** The phone's clock and ours may differ a little; a match must not be older than this. */
const CLOCK_SLACK_MS = 5 * 60_000;
const ERROR_PAUSE_MS = 30_000;
/** Two looks at the SMS store are at least this far apart. */
export const LIST_EVERY_MS = 5_000;
const OUTGOING_TYPES = new Set(['sent', 'failed', 'outbox', 'queued', '']);

interface Pending {
  since: number;
  checks: number;
  /** An interrupted hand-off (not found: failed/interrupted), not a successful one. */
  recovering: boolean;
}

export interface ConfirmerOptions {
  store: MessageStore;
  clock: Clock;
  timeZone: () => string;
  env?: NodeJS.ProcessEnv | undefined;
  timeoutMs?: number;
  list?: typeof listSms;
  logger?: Logger | undefined;
}

/** When a pending message is looked for next, and when its window ends. */
const checksOf = (p: Pending) => (p.recovering ? RECOVERY_CHECK_AT_MS : CHECK_AT_MS);
const nextAt = (p: Pending) => {
  const at = checksOf(p);
  return p.since + (at[Math.min(p.checks, at.length - 1)] ?? CONFIRM_WINDOW_MS);
};
const windowEnd = (p: Pending) => p.since + (p.recovering ? RECOVERY_WINDOW_MS : CONFIRM_WINDOW_MS);

/** The oldest unclaimed outgoing store entry that is this message. */
const match = (row: MessageRow, entries: SmsEntry[], claimed: Set<number>, tz: string) =>
  entries
    .filter((e) => OUTGOING_TYPES.has(e.type) && !claimed.has(e.id))
    .filter((e) => sameNumber(e.address, row.sendTo) && e.body.trim() === row.body.trim())
    .filter((e) => {
      const at = localTimeToMs(e.received, tz);
      return at === null || at >= (row.handoffStartedAt ?? row.createdAt) - CLOCK_SLACK_MS;
    })
    .sort((a, b) => a.id - b.id)[0];

type Verdict = { s: Omit<Settlement, 'at' | 'handedOff'>; handedOff: boolean };

/** Not found: a hand-off that reported success is unconfirmed; an interrupted one did not happen. */
const notFound = (row: MessageRow, p: Pending): Verdict =>
  p.recovering
    ? { s: { status: 'failed', reason: 'interrupted', billedSegments: 0 }, handedOff: false }
    : { s: { status: 'sent', reason: 'unconfirmed', billedSegments: row.segments }, handedOff: true };

/** What one look at the SMS store says about a pending message; undefined: look again later. */
function verdict(row: MessageRow, p: Pending, result: Awaited<ReturnType<typeof listSms>>, claimed: Set<number>, tz: string, expired: boolean): Verdict | undefined {
  if (!result.ok) {
    // A store that cannot be read now (missing, no permission) will not be readable in a
    // minute either; a hang or an odd answer may be passing.
    return result.failure === 'not_found' || result.failure === 'permission_denied' || expired ? notFound(row, p) : undefined;
  }
  const found = match(row, result.entries, claimed, tz);
  if (found?.type === 'sent') {
    claimed.add(found.id);
    return { s: { status: 'sent', reason: null, billedSegments: row.segments, smsStoreId: found.id }, handedOff: true };
  }
  if (found?.type === 'failed') {
    claimed.add(found.id);
    return { s: { status: 'failed', reason: 'not_in_sent_box', billedSegments: 0, smsStoreId: found.id }, handedOff: true };
  }
  if (!expired) return undefined;
  // Still in the phone's outbox: Android has it and sends it.
  if (!found) return notFound(row, p);
  claimed.add(found.id);
  return { s: { status: 'sent', reason: 'unconfirmed', billedSegments: row.segments, smsStoreId: found.id }, handedOff: true };
}

/** One read of the phone's SMS store for every message awaiting confirmation: the due ones are
 * judged (found, failed, or not found at the end of their window); the others settle only on a
 * clear answer (found as sent or failed), else keep their own schedule. */
async function lookAt(
  opts: ConfirmerOptions,
  pending: Map<string, Pending>,
  due: Set<string>,
  settle: (row: MessageRow, s: Omit<Settlement, 'at' | 'handedOff'>, handedOff?: boolean) => void,
): Promise<void> {
  const list = opts.list ?? listSms;
  const result = await list({ box: 'all', limit: 50, timeoutMs: opts.timeoutMs ?? 10_000, ...(opts.env ? { env: opts.env } : {}) });
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

export function createConfirmer(opts: ConfirmerOptions) {
  /** By message id: since when it is looked for, how often it was, and why. */
  const pending = new Map<string, Pending>();
  let stopped = false;
  /** After a failed round (e.g. the database cannot be written), wait before the next. */
  let pauseUntil = 0;

  const settle = (row: MessageRow, s: Omit<Settlement, 'at' | 'handedOff'>, handedOff = true) => {
    opts.store.settle(row.id, { ...s, at: opts.clock.now(), handedOff });
    pending.delete(row.id);
    opts.logger?.info({ id: row.id, status: s.status, reason: s.reason }, 'sms confirmation settled');
  };

  /** When the SMS store was last looked at (monotonic), for LIST_EVERY_MS. */
  let listedAt = -Infinity;

  const checkDue = async (): Promise<void> => {
    const now = opts.clock.now();
    const due = new Set([...pending.entries()].filter(([, p]) => nextAt(p) <= now).map(([id]) => id));
    if (due.size === 0) return;
    listedAt = opts.clock.monotonicMs();
    await lookAt(opts, pending, due, settle);
  };

  /** Ms until the next check is due (not before a pause ends); undefined when idle: no timer. */
  const nextWait = (): number | undefined => {
    if (stopped || pending.size === 0) return undefined;
    const now = opts.clock.now();
    const nextList = listedAt + LIST_EVERY_MS - opts.clock.monotonicMs();
    return Math.max(0, Math.min(...[...pending.values()].map(nextAt)) - now, pauseUntil - now, nextList);
  };

  const loop = createLoop({
    clock: opts.clock,
    async run() {
      try {
        await checkDue();
      } catch (err) {
        pauseUntil = opts.clock.now() + ERROR_PAUSE_MS;
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
      stopped = false;
      loop.start();
      for (const row of opts.store.awaitingConfirmation()) {
        pending.set(row.id, { since: row.handedOffAt!, checks: 0, recovering: false });
      }
      schedule();
    },
    checkDue,
    async stop() {
      stopped = true;
      await loop.stop();
    },
    pending: () => pending.size,
    hasTimer: () => loop.hasTimer(),
  };
}

export type Confirmer = ReturnType<typeof createConfirmer>;
