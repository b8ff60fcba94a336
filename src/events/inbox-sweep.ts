// The inbox's deep sweep: a poll reads the top of the inbox (inbox-pages.ts) and pages below
// it only while they may hold something new by date, so a new _id dated older than the 100
// newest (the phone's clock set back a day, say) would never be read. Every SWEEP_EVERY_MS
// one poll also reads one SWEEP_PAGE_SIZE page further down, from just below the top page
// to the end of the inbox and round again (pages overlap by RESUME_OVERLAP: a deletion shifts
// them up). Bound: a new _id anywhere in an inbox of N messages is found within
// ceil((N - 90) / 490) sweep steps of 15 minutes, plus one poll (N = 1000: 30 minutes; 5000:
// 165; 10 000: 315), or one more round when more than 10 messages above it were deleted
// between two steps. Cost: one termux-sms-list call per 15 minutes, 4 an hour, and none
// while the whole inbox fits the top page: with the 120 polls of an idle hour at the 30 s
// cadence, 124, the inbox's share of the 150 Termux:API calls an idle hour may make
// (docs/design.md, "The inbox"; the device facts take the rest).
import type { Clock } from '../core/clock.js';
import type { listSms, SmsEntry } from '../device/sms-list.js';

/** Entries read per sweep step: one call (what a call costs is the wake-up, not its size). */
export const SWEEP_PAGE_SIZE = 500;
/** One sweep step at most this often (monotonic time): 4 termux-sms-list calls an hour. */
export const SWEEP_EVERY_MS = 15 * 60_000;

export interface SweepOptions {
  clock: Clock;
  list: typeof listSms;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv | undefined;
  /** Where each round starts: just below the top page, overlapping it a little. */
  firstOffset: number;
  overlap: number;
}

/** A sweep step when one is due (else nothing): the inbox entries of the next page down. */
export function deepSweep(opts: SweepOptions) {
  let dueAt: number | null = null;
  let from = opts.firstOffset;
  return {
    /** Where the next step reads (health, tests). */
    position: () => from,
    /** `topFull`: the top page was full, so the inbox goes on below it. */
    async step(topFull: boolean): Promise<SmsEntry[]> {
      const mono = opts.clock.monotonicMs();
      dueAt ??= mono + SWEEP_EVERY_MS;
      if (!topFull || mono < dueAt) return [];
      dueAt = mono + SWEEP_EVERY_MS;
      const r = await opts.list({
        box: 'inbox',
        limit: SWEEP_PAGE_SIZE,
        offset: from,
        timeoutMs: opts.timeoutMs,
        env: opts.env,
      });
      // A failed step is tried again at the next one; the poll's own pages stand.
      if (!r.ok) return [];
      from = r.entries.length < SWEEP_PAGE_SIZE ? opts.firstOffset : from + SWEEP_PAGE_SIZE - opts.overlap;
      return r.entries.filter((e) => e.type === 'inbox');
    },
  };
}
