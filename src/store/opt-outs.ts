// The opt-out list (table opt_outs): one row per number that ever opted out or in, its
// state, when it changed and by what (`sms`, `api`, `mqtt`). Never pruned with the history.
// A row with opted_out = 0 is kept: its `at` decides whether a change shared over MQTT is
// newer. Numbers are stored normalized (sms/opt-out-list.ts normalizes them). A change of this
// phone's own is written `unshared` in the same statement (whichever transaction writes it);
// MQTT marks it shared once the broker gave it back. A stored time that is not a date (a forged
// shared change that 0.4 applied) is read as 0, so no read breaks on it.
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import { afterCommit, transaction } from './transaction.js';

export interface OptOutRow {
  number: string;
  optedOut: boolean;
  /** ms since epoch, UTC. */
  at: number;
  by: string;
}

interface RawRow {
  number: string;
  opted_out: number;
  at: number;
  by: string;
}

/** The latest time a Date can hold (ms since epoch): beyond it toISOString() throws. */
const MAX_DATE_MS = 8.64e15;

/** The stored time, or 0 when it is not one a Date can hold. */
function dateMs(at: unknown): number {
  return typeof at === 'number' && Number.isSafeInteger(at) && at >= 0 && at <= MAX_DATE_MS ? at : 0;
}

function toRow(r: RawRow): OptOutRow {
  return { number: r.number, optedOut: r.opted_out === 1, at: dateMs(r.at), by: r.by };
}

/** What the list announces on the event path, once the change is committed. */
export interface OptOutEvents {
  /** This gateway changed the list (a keyword, the API); not a change read from another gateway. */
  'opt-out.changed': OptOutRow;
}

export function createOptOutStore(db: Db) {
  const getStmt = db.prepare(`SELECT number, opted_out, at, by FROM opt_outs WHERE number = @number`);
  const upsertStmt = db.prepare(`
    INSERT INTO opt_outs (number, opted_out, at, by, unshared) VALUES (@number, @optedOut, @at, @by, @unshared)
    ON CONFLICT (number) DO UPDATE SET opted_out = excluded.opted_out, at = excluded.at, by = excluded.by,
      unshared = excluded.unshared`);
  const listStmt = db.prepare(
    `SELECT number, opted_out, at, by FROM opt_outs WHERE opted_out = 1 ORDER BY at DESC, number LIMIT @limit ` +
      `OFFSET @offset`,
  );
  const countStmt = db.prepare(`SELECT COUNT(*) AS n FROM opt_outs WHERE opted_out = 1`);
  const unsharedStmt = db.prepare(`
    SELECT number, opted_out, at, by FROM opt_outs
    WHERE unshared = 1 AND number > @after ORDER BY number LIMIT @limit`);
  const markSharedStmt = db.prepare(`
    UPDATE opt_outs SET unshared = 0 WHERE number = @number AND opted_out = @optedOut AND at = @at AND unshared = 1`);

  const get = (number: string): OptOutRow | undefined => {
    const r = getStmt.get({ number }) as RawRow | undefined;
    return r ? toRow(r) : undefined;
  };

  return {
    get,
    /** Whether the number is on the list now. */
    isListed: (number: string): boolean => get(number)?.optedOut === true,
    /**
     * Sets the number's state; false when it already was in that state (nothing written).
     * `onlyIfNewer`: a change read from elsewhere (MQTT) applies only over an older `at`.
     * `announce`: told the row once the outermost transaction (maybe the caller's) committed.
     */
    change: transaction(db, (row: OptOutRow, onlyIfNewer = false, announce?: (row: OptOutRow) => void): boolean => {
      if (databaseFileGone(db)) throw fileGoneError(); // a change written there would vanish at the next start
      const current = get(row.number);
      if (current && current.optedOut === row.optedOut) return false;
      // Taking off a number never listed changes nothing (a shared one is kept: its time orders later changes).
      if (!current && !row.optedOut && !onlyIfNewer) return false;
      if (onlyIfNewer && current && current.at >= row.at) return false;
      const unshared = onlyIfNewer ? 0 : 1; // a change read from elsewhere is not this phone's to share
      upsertStmt.run({ number: row.number, optedOut: row.optedOut ? 1 : 0, at: row.at, by: row.by, unshared });
      if (announce) afterCommit(db, () => announce(row));
      return true;
    }),
    /** This phone's changes the broker has not given back yet, by number, after `after` ('' from the first). */
    unshared(after: string, limit: number): OptOutRow[] {
      return (unsharedStmt.all({ after, limit }) as RawRow[]).map(toRow);
    },
    /** The broker gave this change back: shared, unless the number changed again since (false then). */
    markShared: (row: Pick<OptOutRow, 'number' | 'optedOut' | 'at'>): boolean =>
      markSharedStmt.run({ number: row.number, optedOut: row.optedOut ? 1 : 0, at: row.at }).changes > 0,
    count: () => (countStmt.get() as { n: number }).n,
    /** The numbers on the list now, newest change first. */
    list(page: { limit: number; offset: number }): { rows: OptOutRow[]; total: number } {
      const rows = (listStmt.all(page) as RawRow[]).map(toRow);
      return { rows, total: (countStmt.get() as { n: number }).n };
    },
  };
}

export type OptOutStore = ReturnType<typeof createOptOutStore>;
