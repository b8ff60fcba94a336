// The one hand-off lane: every SMS, synchronous or queued, is handed to the phone from
// here, one at a time, under the pacing rules. Synchronous sends wait in memory for the
// next slot (bounded: a send that cannot start within SYNC_SLOT_WAIT_MS is refused, never
// recorded); queued messages wait in the messages table, in order of sendAt (null =
// acceptance) then acceptance. Before each hand-off its start is committed, so a message
// a crash interrupts is never handed off twice; its process group is recorded as it starts,
// so the next start can end what is left of it and settle it through the sent box. A
// hand-off that times out pauses the queue (30 s, then 1, 2, 4 ... up to 10 minutes) until
// one succeeds. Expiry has its own wake-up, at the next expiresAt: a waiting message expires
// on time whatever holds the lane (a pause, quiet hours, sendAt, a hand-off still hanging).
// A timer runs only while something waits; nothing in memory is the truth.
import type { Logger } from 'pino';
import type { Clock, Timer } from '../core/clock.js';
import { createLoop } from '../core/loop.js';
import type { MessageRow, MessageStore, NewMessage } from '../store/messages.js';
import type { QueueStore } from '../store/queue.js';
import type { Pacing } from './pacing.js';
import { quietRemainingMs, type QuietHours } from '../core/quiet-hours.js';
import type { Handed, HandoffResult } from './handoff.js';
import type { Sender } from './senders.js';
import type { Settler } from './settle.js';

/** How long a synchronous send may wait for its slot (the answer then comes within the send timeout + this). */
export const SYNC_SLOT_WAIT_MS = 5_000;
/** Pause after a timed-out hand-off: 30 s, doubling from 1 minute, at most 10 minutes. */
export function pauseMs(consecutiveTimeouts: number): number {
  if (consecutiveTimeouts <= 0) return 0;
  if (consecutiveTimeouts === 1) return 30_000;
  return Math.min(600_000, 60_000 * 2 ** (consecutiveTimeouts - 2));
}

export interface SyncJob {
  row: NewMessage;
}

export interface LaneDeps {
  store: Pick<MessageStore, 'insertStarted' | 'markHandoffStarted' | 'recordHandoffProcess'>;
  queue: QueueStore;
  pacing: Pacing;
  sender: Sender;
  clock: Clock;
  timeZone: () => string;
  quietHours?: QuietHours | undefined;
  /** Announces the finished hand-off and records it (status, events, confirmation); never throws. */
  settler: Pick<Settler, 'settle'>;
  logger?: Logger | undefined;
}

export type SyncOutcome =
  | { started: false; why: 'busy' | 'stopping' }
  | { started: false; why: 'storage'; error: unknown }
  | { started: true; handed: Handed };

interface Waiter {
  job: SyncJob;
  resolve(o: SyncOutcome): void;
  timer: Timer;
}

export interface QueueState {
  waiting: number;
  paused: boolean;
  /** Wall-clock ms of the next try while paused, else null. */
  nextAttemptAt: number | null;
  oldestWaitingSince: number | null;
  consecutiveTimeouts: number;
}

/** Synchronous sends waiting in memory for their slot, each for at most SYNC_SLOT_WAIT_MS. */
function syncWaiters(clock: Clock) {
  const list: Waiter[] = [];
  return {
    /** Waits; answers `busy` when no slot came within SYNC_SLOT_WAIT_MS. */
    add(job: SyncJob): Promise<SyncOutcome> {
      return new Promise<SyncOutcome>((resolve) => {
        const waiter: Waiter = {
          job,
          resolve,
          timer: clock.setTimer(() => {
            const i = list.indexOf(waiter);
            if (i >= 0) {
              list.splice(i, 1);
              resolve({ started: false, why: 'busy' });
            }
          }, SYNC_SLOT_WAIT_MS),
        };
        list.push(waiter);
      });
    },
    first: () => list[0],
    /** The first waiter leaves the list (its slot came): its timeout no longer applies. */
    take(): Waiter | undefined {
      const w = list.shift();
      w?.timer.cancel();
      return w;
    },
    /** Every waiter is answered `stopping`. */
    refuseAll() {
      for (const w of list.splice(0)) {
        w.timer.cancel();
        w.resolve({ started: false, why: 'stopping' });
      }
    },
    segments: () => list.reduce((s, w) => s + w.job.row.segments, 0),
  };
}

/** The pause after timed-out hand-offs (pauseMs), ended by the next one that succeeds. */
function pauseState(clock: Clock, logger: Logger | undefined) {
  let consecutiveTimeouts = 0;
  let pauseUntil = 0; // monotonic; 0 = not paused
  return {
    after(result: HandoffResult) {
      if (result.ok) {
        consecutiveTimeouts = 0;
        pauseUntil = 0;
      } else if (result.reason === 'timeout') {
        consecutiveTimeouts++;
        pauseUntil = clock.monotonicMs() + pauseMs(consecutiveTimeouts);
        logger?.warn({ pauseMs: pauseMs(consecutiveTimeouts) }, 'hand-off timed out: the queue pauses');
      }
    },
    /** Ms left of the pause, 0 when not paused. */
    remainingMs: () => Math.max(0, pauseUntil - clock.monotonicMs()),
    consecutiveTimeouts: () => consecutiveTimeouts,
  };
}

/** The longest the expiry wake-up sleeps: a wall clock set forward is caught within this. */
const EXPIRY_RECHECK_MS = 60_000;

/** Expires what is due; the ms until the next expiresAt (undefined: none waits). */
function expireDue(deps: LaneDeps, now: number): { expired: number; nextInMs: number | undefined } {
  const expired = deps.queue.expireDue(now);
  if (expired.length > 0) deps.logger?.info({ ids: expired }, 'queued messages expired unsent');
  const next = deps.queue.nextExpiry();
  return { expired: expired.length, nextInMs: next === null ? undefined : Math.min(EXPIRY_RECHECK_MS, Math.max(0, next - now)) };
}

/**
 * The queued message to hand off now, or the ms until one may go (undefined: nothing
 * waits). A pause, quiet hours, sendAt and the queue's pacing hold it. Never one past its
 * expiresAt: expiry has its own wake-up (createLane), but a next message already past it
 * (a wall clock set forward) is expired here first, so no hand-off pays for an expiry run.
 */
function pickQueued(deps: LaneDeps, now: number, pausedMs: number): { row: MessageRow } | { waitMs: number | undefined } {
  const { queue, pacing } = deps;
  if (pausedMs > 0) return { waitMs: pausedMs };
  const first = queue.next();
  const next = first && first.expiresAt !== null && first.expiresAt <= now ? (expireDue(deps, now), queue.next()) : first;
  if (!next) return { waitMs: undefined }; // nothing waits: no timer
  const quiet = quietRemainingMs(deps.quietHours, now, deps.timeZone());
  const dueIn = next.dueAt - now;
  if (quiet > 0 || dueIn > 0) return { waitMs: Math.max(quiet, dueIn) };
  const wait = pacing.queuedWaitMs(next.segments);
  if (wait > 0) return { waitMs: wait };
  return { row: next };
}

/** Hands one message to the phone: paced, its process group kept, its outcome settled. */
async function handOff(deps: LaneDeps, pause: ReturnType<typeof pauseState>, row: MessageRow, queued: boolean): Promise<Handed> {
  const { store, clock } = deps;
  deps.pacing.record(row.segments, queued);
  let result: HandoffResult;
  let error: unknown;
  try {
    result = await deps.sender.send(
      { number: row.sendTo, text: row.body, simSlot: row.simSlot },
      {
        // Kept with the message so a start after a crash can end what is left of it.
        onStarted: (group) => {
          try {
            store.recordHandoffProcess(row.id, group);
          } catch (err) {
            deps.logger?.warn({ id: row.id, err }, 'could not record the hand-off process');
          }
        },
      },
    );
  } catch (err) {
    error = err;
    result = { ok: false, reason: 'termux_api_error', detail: 'internal error' };
    deps.logger?.error({ id: row.id, err }, 'the sender failed');
  }
  pause.after(result);
  const handed: Handed = error === undefined ? { row, result, at: clock.now() } : { row, result, at: clock.now(), error };
  deps.settler.settle(handed);
  return handed;
}

export function createLane(deps: LaneDeps) {
  const { store, pacing, clock } = deps;
  const waiters = syncWaiters(clock);
  const pause = pauseState(clock, deps.logger);
  let stopped = false;

  /** Hands off what is due now, one at a time; returns the ms until it should look again. */
  const drain = async (): Promise<number | undefined> => {
    for (;;) {
      if (stopped) return undefined;
      const now = clock.now();
      // Synchronous sends first: they take the next slot.
      const w = waiters.first();
      if (w) {
        const wait = pacing.syncWaitMs(w.job.row.segments);
        if (wait > 0) return wait;
        waiters.take();
        let row: MessageRow;
        try {
          row = store.insertStarted(w.job.row, now);
        } catch (err) {
          w.resolve({ started: false, why: 'storage', error: err });
          deps.logger?.error({ err }, 'could not record a synchronous send; not sent');
          continue;
        }
        w.resolve({ started: true, handed: await handOff(deps, pause, row, false) });
        continue;
      }
      const pick = pickQueued(deps, now, pause.remainingMs());
      if (!('row' in pick)) return pick.waitMs;
      if (!store.markHandoffStarted(pick.row.id, now)) continue; // no longer waiting
      await handOff(deps, pause, { ...pick.row, handoffStartedAt: now }, true);
    }
  };

  const loop = createLoop({
    clock,
    run: drain,
    retryMs: 30_000,
    onError: (err) => deps.logger?.error({ err }, 'the hand-off lane failed; retrying in 30 s'),
  });
  // Expiry on time, independent of the hand-offs: wakes at the next expiresAt, also while
  // the lane waits (pause, quiet hours, sendAt) or a hand-off hangs. What expired may let
  // the next message go sooner: the lane looks again.
  const expiry = createLoop({
    clock,
    run: () => {
      const r = expireDue(deps, clock.now());
      if (r.expired > 0) void loop.kick();
      return r.nextInMs;
    },
    retryMs: 30_000,
    onError: (err) => deps.logger?.error({ err }, 'expiring queued messages failed; retrying in 30 s'),
  });

  return {
    /** Queued messages were added or changed: look again. */
    notify() {
      void expiry.kick();
      void loop.kick();
    },
    /** Hands off what is due now; resolves when that run has finished. */
    runDue: () => (void expiry.kick(), loop.kick()),
    /**
     * A synchronous send: waits for the next slot (at most SYNC_SLOT_WAIT_MS), then is
     * recorded and handed off. `started: false` means nothing was recorded or sent.
     */
    submit(job: SyncJob): Promise<SyncOutcome> {
      if (stopped) return Promise.resolve({ started: false, why: 'stopping' });
      const outcome = waiters.add(job);
      void loop.kick();
      return outcome;
    },
    /** Segments of synchronous sends waiting for their slot. */
    pendingSyncSegments: () => waiters.segments(),
    state(): QueueState {
      const left = pause.remainingMs();
      const w = deps.queue.summary();
      return {
        waiting: w.count,
        paused: left > 0,
        nextAttemptAt: left > 0 ? clock.now() + left : null,
        oldestWaitingSince: w.oldestCreatedAt,
        consecutiveTimeouts: pause.consecutiveTimeouts(),
      };
    },
    hasTimer: () => loop.hasTimer() || expiry.hasTimer(),
    /** Resolves when the running hand-off (if any) has finished. */
    idle: () => loop.idle(),
    /**
     * Stops taking work; waits for a hand-off in progress (its outcome is recorded, not
     * left "interrupted"), at most `graceMs`: the sender's own timeout normally ends it first.
     */
    async stop(graceMs = 35_000) {
      stopped = true;
      waiters.refuseAll();
      await Promise.all([expiry.stop(), loop.stop(graceMs)]);
    },
  };
}

export type Lane = ReturnType<typeof createLane>;
