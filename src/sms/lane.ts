// The one hand-off lane: every SMS, synchronous or queued, is handed to the phone from
// here, one at a time, under the pacing rules. Synchronous sends wait in memory for the
// next slot (bounded: a send that cannot start within SYNC_SLOT_WAIT_MS is refused, never
// recorded); queued messages wait in the messages table, in order of sendAt (null =
// acceptance) then acceptance. Before each hand-off its start is committed, so a message
// a crash interrupts is never handed off twice; its process group is recorded as it starts,
// so the next start can end what is left of it and settle it through the sent box. A
// hand-off that times out pauses the queue (30 s, then 1, 2, 4 ... up to 10 minutes) until
// one succeeds. A timer runs only while something waits; nothing in memory is the truth.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { MessageRow, MessageStore, NewMessage } from '../store/messages.js';
import type { QueueStore } from '../store/queue.js';
import type { Pacing } from './pacing.js';
import { quietRemainingMs, type QuietHours } from '../core/quiet-hours.js';
import type { HandoffResult, Sender } from './senders.js';

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

/** What a finished hand-off reports to its settler. */
export interface Handed {
  row: MessageRow;
  result: HandoffResult;
  at: number;
  /** The sender threw (a bug, not a phone answer): recorded as termux_api_error, answered 500. */
  error?: unknown;
}

export interface LaneDeps {
  store: Pick<MessageStore, 'insertStarted' | 'markHandoffStarted' | 'recordHandoffProcess'>;
  queue: QueueStore;
  pacing: Pacing;
  sender: Sender;
  clock: Clock;
  timeZone: () => string;
  quietHours?: QuietHours | undefined;
  /** Records the outcome (status, events, confirmation); never throws. */
  settle(h: Handed): void;
  logger?: Logger | undefined;
}

export type SyncOutcome =
  | { started: false; why: 'busy' | 'stopping' }
  | { started: false; why: 'storage'; error: unknown }
  | { started: true; handed: Handed };

interface Waiter {
  job: SyncJob;
  resolve(o: SyncOutcome): void;
  timer: NodeJS.Timeout;
}

export interface QueueState {
  waiting: number;
  paused: boolean;
  /** Wall-clock ms of the next try while paused, else null. */
  nextAttemptAt: number | null;
  oldestWaitingSince: number | null;
  consecutiveTimeouts: number;
}

export function createLane(deps: LaneDeps) {
  const { store, queue, pacing, sender, clock } = deps;
  const waiters: Waiter[] = [];
  let timer: NodeJS.Timeout | undefined;
  let wakeAt: number | undefined; // monotonic
  let running: Promise<number> | undefined;
  let stopped = false;
  let consecutiveTimeouts = 0;
  let pauseUntil = 0; // monotonic; 0 = not paused

  const schedule = (inMs: number | undefined) => {
    if (stopped || inMs === undefined) return;
    const at = clock.monotonicMs() + Math.max(0, inMs);
    if (timer && wakeAt !== undefined && wakeAt <= at) return;
    clearTimeout(timer);
    wakeAt = at;
    timer = setTimeout(() => {
      timer = undefined;
      wakeAt = undefined;
      void runDue();
    }, Math.max(1, Math.ceil(inMs)));
    timer.unref?.();
  };

  const after = (result: HandoffResult) => {
    if (result.ok) {
      consecutiveTimeouts = 0;
      pauseUntil = 0;
    } else if (result.reason === 'timeout') {
      consecutiveTimeouts++;
      pauseUntil = clock.monotonicMs() + pauseMs(consecutiveTimeouts);
      deps.logger?.warn({ pauseMs: pauseMs(consecutiveTimeouts) }, 'hand-off timed out: the queue pauses');
    }
  };

  const handOff = async (row: MessageRow, queued: boolean): Promise<Handed> => {
    pacing.record(row.segments, queued);
    let result: HandoffResult;
    let error: unknown;
    try {
      result = await sender.send(
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
    after(result);
    const handed: Handed = error === undefined ? { row, result, at: clock.now() } : { row, result, at: clock.now(), error };
    deps.settle(handed);
    return handed;
  };

  /** Hands off what is due now, one at a time; returns how many went. */
  const drain = async (): Promise<number> => {
    // Running now: a wake-up set earlier is no longer needed (set again below if it is).
    clearTimeout(timer);
    timer = undefined;
    wakeAt = undefined;
    let count = 0;
    for (;;) {
      if (stopped) return count;
      const now = clock.now();
      const mono = clock.monotonicMs();
      // Synchronous sends first: they take the next slot.
      const w = waiters[0];
      if (w) {
        const wait = pacing.syncWaitMs(w.job.row.segments);
        if (wait > 0) {
          schedule(wait);
          return count;
        }
        waiters.shift();
        clearTimeout(w.timer);
        let row: MessageRow;
        try {
          row = store.insertStarted(w.job.row, now);
        } catch (err) {
          w.resolve({ started: false, why: 'storage', error: err });
          deps.logger?.error({ err }, 'could not record a synchronous send; not sent');
          continue;
        }
        w.resolve({ started: true, handed: await handOff(row, false) });
        count++;
        continue;
      }
      const expired = queue.expireDue(now);
      if (expired.length > 0) deps.logger?.info({ ids: expired }, 'queued messages expired unsent');
      if (pauseUntil > mono) {
        schedule(pauseUntil - mono);
        return count;
      }
      const next = queue.next();
      if (!next) return count; // nothing waits: no timer
      const nextExpiry = queue.nextExpiry();
      const expiresIn = nextExpiry === null ? Infinity : nextExpiry - now;
      const quiet = quietRemainingMs(deps.quietHours, now, deps.timeZone());
      const dueIn = next.dueAt - now;
      if (quiet > 0 || dueIn > 0) {
        schedule(Math.min(Math.max(quiet, dueIn), expiresIn));
        return count;
      }
      const wait = pacing.queuedWaitMs(next.segments);
      if (wait > 0) {
        schedule(Math.min(wait, expiresIn));
        return count;
      }
      if (!store.markHandoffStarted(next.id, now)) continue; // no longer waiting
      await handOff({ ...next, handoffStartedAt: now }, true);
      count++;
    }
  };

  const runDue = (): Promise<number> => {
    if (running) return running.then(() => runDue());
    running = drain()
      .catch((err: unknown) => {
        deps.logger?.error({ err }, 'the hand-off lane failed; retrying in 30 s');
        schedule(30_000);
        return 0;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };

  return {
    /** Queued messages were added or changed: look again. */
    notify() {
      void runDue();
    },
    runDue,
    /**
     * A synchronous send: waits for the next slot (at most SYNC_SLOT_WAIT_MS), then is
     * recorded and handed off. `started: false` means nothing was recorded or sent.
     */
    submit(job: SyncJob): Promise<SyncOutcome> {
      if (stopped) return Promise.resolve({ started: false, why: 'stopping' });
      return new Promise<SyncOutcome>((resolve) => {
        const waiter: Waiter = {
          job,
          resolve,
          timer: setTimeout(() => {
            const i = waiters.indexOf(waiter);
            if (i >= 0) {
              waiters.splice(i, 1);
              resolve({ started: false, why: 'busy' });
            }
          }, SYNC_SLOT_WAIT_MS),
        };
        waiters.push(waiter);
        void runDue();
      });
    },
    /** Segments of synchronous sends waiting for their slot. */
    pendingSyncSegments: () => waiters.reduce((s, w) => s + w.job.row.segments, 0),
    state(): QueueState {
      const mono = clock.monotonicMs();
      const paused = pauseUntil > mono;
      const w = queue.summary();
      return {
        waiting: w.count,
        paused,
        nextAttemptAt: paused ? clock.now() + (pauseUntil - mono) : null,
        oldestWaitingSince: w.oldestCreatedAt,
        consecutiveTimeouts,
      };
    },
    hasTimer: () => timer !== undefined,
    /** Resolves when the running hand-off (if any) has finished. */
    idle: () => running ?? Promise.resolve(0),
    /**
     * Stops taking work; waits for a hand-off in progress (its outcome is recorded, not
     * left "interrupted"), at most `graceMs`: the sender's own timeout normally ends it first.
     */
    async stop(graceMs = 35_000) {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
      for (const w of waiters.splice(0)) {
        clearTimeout(w.timer);
        w.resolve({ started: false, why: 'stopping' });
      }
      if (!running) return;
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([running, new Promise((r) => (grace = setTimeout(r, graceMs)))]);
      clearTimeout(grace);
    },
  };
}

export type Lane = ReturnType<typeof createLane>;
