// The keyword rules (table rules): what a received SMS is answered with automatically
// (sms/rules.ts decides, sms/keyword-match.ts matches). Oldest first: the order matching
// tries them in. At most `limit` rules: add() counts and inserts in one transaction.
import { databaseFileGone, fileGoneError, type Db } from './database.js';
import { transaction } from './transaction.js';

export type RuleMatch = 'exact' | 'prefix';

export interface RuleRow {
  id: string;
  keyword: string;
  match: RuleMatch;
  /** Empty: an event-only rule (the SMS carries its keyword, nothing is sent). */
  reply: string;
  /** Normalized numbers allowed to trigger it; null: anyone. */
  from: string[] | null;
  /** ms since epoch, UTC. */
  createdAt: number;
}

interface RawRow {
  id: string;
  keyword: string;
  match: RuleMatch;
  reply: string;
  from_numbers: string | null;
  created_at: number;
}

const fromOf = (column: string | null): string[] | null => {
  if (column === null) return null;
  try {
    const parsed: unknown = JSON.parse(column);
    return Array.isArray(parsed) ? parsed.filter((n): n is string => typeof n === 'string') : null;
  } catch {
    return null;
  }
};

const toRow = (r: RawRow): RuleRow => ({
  id: r.id,
  keyword: r.keyword,
  match: r.match,
  reply: r.reply,
  from: fromOf(r.from_numbers),
  createdAt: r.created_at,
});

export function createRuleStore(db: Db) {
  const listStmt = db.prepare(
    `SELECT id, keyword, match, reply, from_numbers, created_at FROM rules ORDER BY created_at, id`,
  );
  const countStmt = db.prepare(`SELECT COUNT(*) AS n FROM rules`);
  const insertStmt = db.prepare(`
    INSERT INTO rules (id, keyword, match, reply, from_numbers, created_at)
    VALUES (@id, @keyword, @match, @reply, @fromNumbers, @createdAt)`);
  const deleteStmt = db.prepare(`DELETE FROM rules WHERE id = @id`);
  const count = () => (countStmt.get() as { n: number }).n;

  return {
    /** Every rule, oldest first. */
    list: (): RuleRow[] => (listStmt.all() as RawRow[]).map(toRow),
    count,
    /** Stores the rule; false (nothing written) when `limit` rules exist already. */
    add: transaction(db, (row: RuleRow, limit: number): boolean => {
      if (databaseFileGone(db)) throw fileGoneError(); // a rule written there would vanish at the next start
      if (count() >= limit) return false;
      insertStmt.run({ ...row, fromNumbers: row.from === null ? null : JSON.stringify(row.from) });
      return true;
    }),
    /** False when no rule has this id. */
    remove: (id: string): boolean => {
      if (databaseFileGone(db)) throw fileGoneError();
      return deleteStmt.run({ id }).changes > 0;
    },
  };
}

export type RuleStore = ReturnType<typeof createRuleStore>;
