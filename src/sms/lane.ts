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
// A timer runs only while something waits; nothing in memory is the truth. sendAt, expiry
// and quiet hours are wall-clock times, looked at again at once when the wall clock jumps
// (clockJumped); while the lane waits it reads the wall clock at least every 30 s
// (core/loop.ts WALL_CLOCK_STEP_MS), so an idle gateway sees a jump that soon. The pause is
// a duration, on the monotonic clock, which no jump moves.
import type { Clock } from '../core/clock.js';
import { createLoop, WALL_CLOCK_STEP_MS } from '../core/loop.js';
import type { MessageRow, MessageStore, NewMessage } from '../store/messages.js';
import type { FinishedHandoff, HandoffResult } from './handoff.js';
import { pauseState, type PauseState } from './handoff-pause.js';
import { expireDue, pickQueued, type PickDeps } from './queue-pick.js';
import type { Sender } from './senders.js';
import type { Settler } from './settle.js';
import { syncWaiters, type SyncJob, type SyncOutcome, type SyncWaiters } from './sync-waiters.js';

export interface LaneDeps extends PickDeps {
  store: Pick<MessageStore, 'insertStarted' | 'markHandoffStarted' | 'recordHandoffProcess'>;
  sender: Sender;
  clock: Clock;
  /** Announces the finished hand-off and records it (status, events, confirmation); never throws. */
  settler: Pick<Settler, 'settle'>;
  /** Whether a synchronous send's recipient is on the opt-out list now (it opted out while the send waited). */
  syncOptedOut?: ((row: NewMessage) => boolean) | undefined;
}

export interface QueueState {
  waiting: number;
  paused: boolean;
  /** Wall-clock ms of the next try while paused, else null. */
  nextAttemptAt: number | null;
  oldestWaitingSince: number | null;
  consecutiveTimeouts: number;
}

/** Hands one message to the phone: paced, its process group kept, its outcome settled. */
async function handOff(deps: LaneDeps, pause: PauseState, row: MessageRow, queued: boolean): Promise<FinishedHandoff> {
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
  const handed: FinishedHandoff =
    error === undefined ? { row, result, at: clock.now() } : { row, result, at: clock.now(), error };
  deps.settler.settle(handed);
  return handed;
}

/**
 * Hands off what is due now, one at a time; returns the ms until the lane should look
 * again (undefined: nothing waits). Synchronous sends first: they take the next slot.
 */
function drainer(deps: LaneDeps, waiters: SyncWaiters, pause: PauseState, stopped: () => boolean) {
  const { store, pacing, clock } = deps;
  /** The first waiting synchronous send, recorded and handed off; or the ms until its slot. */
  const handOffSync = async (now: number): Promise<number | 'done'> => {
    const w = waiters.first()!;
    const wait = pacing.syncWaitMs(w.job.row.segments);
    if (wait > 0) return wait;
    waiters.take();
    if (deps.syncOptedOut?.(w.job.row)) {
      w.resolve({ started: false, why: 'opted_out' }); // nothing recorded, never handed off
      return 'done';
    }
    let row: MessageRow;
    try {
      row = store.insertStarted(w.job.row, now);
    } catch (err) {
      w.resolve({ started: false, why: 'storage', error: err });
      deps.logger?.error({ err }, 'could not record a synchronous send; not sent');
      return 'done';
    }
    w.resolve({ started: true, handed: await handOff(deps, pause, row, false) });
    return 'done';
  };
  return async (): Promise<number | undefined> => {
    while (!stopped()) {
      const now = clock.now();
      if (waiters.first()) {
        const r = await handOffSync(now);
        if (r !== 'done') return r;
        continue;
      }
      const pick = pickQueued(deps, now, pause.remainingMs());
      if (!('row' in pick)) return pick.waitMs;
      if (!store.markHandoffStarted(pick.row.id, now)) continue; // no longer waiting
      await handOff(deps, pause, { ...pick.row, handoffStartedAt: now }, true);
    }
    return undefined;
  };
}

/**
 * Expiry on time, independent of the hand-offs: wakes at the next expiresAt, also while
 * the lane waits (pause, quiet hours, sendAt) or a hand-off hangs. What expired may let
 * the next message go sooner: the lane looks again (lookAgain).
 */
function expiryLoop(deps: LaneDeps, lookAgain: () => void) {
  const { clock } = deps;
  return createLoop({
    clock,
    run: () => {
      const r = expireDue(deps, clock.now());
      if (r.expired > 0) lookAgain();
      return r.nextInMs;
    },
    retryMs: 30_000,
    onError: (err) => deps.logger?.error({ err }, 'expiring queued messages failed; retrying in 30 s'),
  });
}

export function createLane(deps: LaneDeps) {
  const { clock } = deps;
  const waiters = syncWaiters(clock);
  const pause = pauseState(clock, deps.logger);
  let stopped = false;
  const drain = drainer(deps, waiters, pause, () => stopped);

  const loop = createLoop({
    clock,
    run: drain,
    retryMs: 30_000,
    stepMs: WALL_CLOCK_STEP_MS, // sendAt and quiet hours are wall-clock times: a step reads the clock
    onError: (err) => deps.logger?.error({ err }, 'the hand-off lane failed; retrying in 30 s'),
  });
  const expiry = expiryLoop(deps, () => void loop.kick());

  return {
    /** Queued messages were added or changed: look again. */
    notify() {
      void expiry.kick();
      void loop.kick();
    },
    /** The wall clock jumped (`clock.jumped`): sendAt, quiet hours and expiry are looked at again now. */
    clockJumped() {
      expiry.wakeIn(0); // a timer, not a run inside the now() that saw the jump
      loop.wakeIn(0);
    },
    /** Hands off what is due now; resolves when that run has finished. */
    runDue() {
      void expiry.kick();
      return loop.kick();
    },
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
