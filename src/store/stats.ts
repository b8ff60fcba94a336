// Daily roll-ups (accepted, sent, failed, cancelled, segments, billed segments) keyed by the local
// day. bump() is called inside the message store's transactions; the readers sum days.
import type { Db } from './database.js';

export interface Counts {
  accepted: number;
  sent: number;
  failed: number;
  cancelled: number;
  /** Accepted but not yet settled (accepted - sent - failed - cancelled). */
  queued: number;
  segments: number;
  billedSegments: number;
}

export type CountsDelta = Partial<Omit<Counts, 'queued'>>;

export function createStatsStore(db: Db) {
  const bumpStmt = db.prepare(`
    INSERT INTO daily_stats (day, accepted, sent, failed, cancelled, segments, billed_segments)
    VALUES (@day, @accepted, @sent, @failed, @cancelled, @segments, @billedSegments)
    ON CONFLICT (day) DO UPDATE SET
      accepted = accepted + excluded.accepted,
      sent = sent + excluded.sent,
      failed = failed + excluded.failed,
      cancelled = cancelled + excluded.cancelled,
      segments = segments + excluded.segments,
      billed_segments = billed_segments + excluded.billed_segments
  `);
  const sumStmt = db.prepare(`
    SELECT COALESCE(SUM(accepted), 0) AS accepted, COALESCE(SUM(sent), 0) AS sent,
           COALESCE(SUM(failed), 0) AS failed, COALESCE(SUM(cancelled), 0) AS cancelled,
           COALESCE(SUM(segments), 0) AS segments,
           COALESCE(SUM(billed_segments), 0) AS billedSegments
    FROM daily_stats WHERE day >= @from AND day <= @to
  `);

  const daysStmt = db.prepare(`
    SELECT day, accepted, sent, failed, cancelled, segments, billed_segments AS billedSegments
    FROM daily_stats WHERE day >= @from AND day <= @to ORDER BY day
  `);

  const sum = (from: string, to: string): Counts => {
    const r = sumStmt.get({ from, to }) as Omit<Counts, 'queued'>;
    return { ...r, queued: r.accepted - r.sent - r.failed - r.cancelled };
  };

  return {
    /** Adds to one day's counters; call inside the transaction of the change it counts. */
    bump(day: string, delta: CountsDelta) {
      bumpStmt.run({
        day,
        accepted: delta.accepted ?? 0,
        sent: delta.sent ?? 0,
        failed: delta.failed ?? 0,
        cancelled: delta.cancelled ?? 0,
        segments: delta.segments ?? 0,
        billedSegments: delta.billedSegments ?? 0,
      });
    },
    day: (day: string) => sum(day, day),
    /** month as YYYY-MM */
    month: (month: string) => sum(`${month}-01`, `${month}-31`),
    allTime: () => sum('0000-00-00', '9999-99-99'),
    /** Each day from..to (YYYY-MM-DD) that has a roll-up row, oldest first. */
    days: (from: string, to: string): (Counts & { day: string })[] =>
      (daysStmt.all({ from, to }) as (Omit<Counts, 'queued'> & { day: string })[]).map((r) => ({
        ...r,
        queued: r.accepted - r.sent - r.failed - r.cancelled,
      })),
  };
}

export type StatsStore = ReturnType<typeof createStatsStore>;
