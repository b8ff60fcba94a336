// Simulated time for the idle-hour count: a Clock (src/core/clock.ts) that moves only when
// told and stands still while the gateway works. runFor() fires each timer due on the way at
// its own time, in order, and after each waits until the process is quiet (quiet(): no
// child process running, no file operation pending, promise chains settled), so a command a
// timer started has answered, and the loop it drives has armed its next timer, before time
// moves on: as if every command took no time at all. Linux only (/proc).
import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../src/core/clock.js';

export interface SimClock extends Clock {
  /** Moves time on by ms, firing each timer due on the way at its own time, settling after each. */
  runFor(ms: number): Promise<void>;
  /** Simulated ms since the clock was made. */
  elapsedMs(): number;
  /** Timers fired so far (each one a wake-up of the gateway on a phone). */
  fired(): number;
}

const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r));
};

/** This process's running children, by pid, leaving out those whose command name is in `ignore` (a broker). */
export function childProcesses(ignore: string[] = []): number[] {
  const pids: number[] = [];
  for (const tid of readdirSync('/proc/self/task')) {
    let text: string;
    try {
      text = readFileSync(`/proc/self/task/${tid}/children`, 'utf8');
    } catch {
      continue; // the thread ended meanwhile
    }
    for (const word of text.trim().split(/\s+/)) {
      if (word === '') continue;
      let comm: string;
      try {
        comm = readFileSync(`/proc/${word}/comm`, 'utf8').trim();
      } catch {
        continue; // already reaped
      }
      if (!ignore.includes(comm)) pids.push(Number(word));
    }
  }
  return pids;
}

const busy = (ignore: string[]) =>
  childProcesses(ignore).length > 0 || process.getActiveResourcesInfo().some((r) => r.startsWith('FSReq'));

/**
 * Waits until no child (but the ignored ones) runs, no file operation is pending and
 * promise chains have settled, twice in a row 2 ms apart; throws after `limitMs` of real time.
 */
export async function quiet(ignore: string[] = [], limitMs = 30_000): Promise<void> {
  const deadline = performance.now() + limitMs;
  let calm = 0;
  while (calm < 2) {
    await turns(5);
    calm = busy(ignore) ? 0 : calm + 1;
    if (performance.now() > deadline)
      throw new Error(`still busy after ${limitMs} ms: children ${childProcesses(ignore).join(', ')}`);
    await sleep(calm === 0 ? 1 : 2);
  }
}

/** A clock starting at `startWallMs` that moves only in runFor(); `settle` runs after each timer. */
export function simClock(startWallMs: number, settle: () => Promise<void>): SimClock {
  const startMono = 1_000_000;
  let mono = startMono;
  let seq = 0;
  let fired = 0;
  const timers = new Map<number, { at: number; fn: () => void }>();
  const nextDue = (until: number) => {
    let best: [number, { at: number; fn: () => void }] | undefined;
    for (const e of timers) if (e[1].at <= until && (!best || e[1].at < best[1].at)) best = e;
    if (best) timers.delete(best[0]);
    return best?.[1];
  };
  return {
    now: () => startWallMs + (mono - startMono),
    monotonicMs: () => mono,
    setTimer(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: mono + Math.max(0, ms), fn });
      return { cancel: () => void timers.delete(id) };
    },
    async runFor(ms) {
      const until = mono + ms;
      await settle();
      for (let t = nextDue(until); t; t = nextDue(until)) {
        mono = Math.max(mono, t.at);
        fired++;
        t.fn();
        await settle();
      }
      mono = until;
      await settle();
    },
    elapsedMs: () => mono - startMono,
    fired: () => fired,
  };
}
