// The SQL of a search over the history and the inbox (q, since, until of GET /api/messages and
// GET /api/inbox): a WHERE clause holding only the conditions a request sets, so that SQLite
// can take a date range from the time index (a `(@since IS NULL OR ...)` form hides it), and
// each resulting statement prepared once, the first time its shape is asked for (a handful of
// shapes: which filters are set). q is a number or a text: a number-like q ("+49 151", "555-01")
// matches the sender's or recipient's number with spaces, dashes, dots, parentheses and a
// leading + removed, from its start when q starts with +, anywhere otherwise (and the text too,
// for a code or an amount); any other q is a case-insensitive substring of the text and of the
// given name columns, found with instr(), so q is always matched literally: LIKE would need its
// wildcards (% and _) escaped, and it reads a pattern or a text only up to a NUL character
// ("l\0i" found every text holding an l). Case is folded by search_fold (JavaScript's
// toLowerCase), so "ÄRGER" finds "ärger", which SQLite's ASCII-only case folding would not; the
// final sigma ς folds to σ, as toLowerCase lowers a word-final Σ to ς, so "ΟΔΟΣ" (q) would miss
// "ΟΔΟΣΤΡΩΜΑ" (text). A tag (key and value) matches a message whose tags hold that key with
// exactly that value (case and all), read from the JSON column only when it is valid JSON.
import type Database from 'better-sqlite3';
import type { Db } from './database.js';

/** What a search asks for; times in ms since epoch, since inclusive, until exclusive. */
export interface SearchFilter {
  q?: string | undefined;
  since?: number | undefined;
  until?: number | undefined;
  /** One tag the message must carry, the value compared exactly. */
  tag?: { key: string; value: string } | undefined;
}

/** Where one table keeps what a search compares. */
export interface SearchColumns {
  /** The time a date range compares (indexed where it can be). */
  time: string;
  /** The number, already without decoration and leading + (an SQL expression). */
  number: string;
  /** The columns a text q is looked for in (the first is the message text). */
  text: readonly [string, ...string[]];
  /** The tags column (JSON object), when the table has one: a tag filter needs it. */
  tags?: string;
}

const NUMBER_LIKE = /^\+?[\d\s\-.()]+$/;

/** How q and the searched columns are compared: lower case, the final sigma as any sigma. */
const fold = (text: string) => text.toLowerCase().replace(/ς/g, 'σ');

/** Whether the column, folded, holds the parameter (already folded): a literal substring, NULs included. */
const CONTAINS = (column: string, param: string) => `instr(search_fold(${column}), ${param}) > 0`;

/** The condition of q and its parameters; undefined for no q (empty or spaces only). */
function termCondition(columns: SearchColumns, q: string): { sql: string; params: Record<string, string> } | undefined {
  const term = q.trim();
  if (term === '') return undefined;
  const text = fold(term);
  const digits = term.replace(/[\s\-.()+]/g, '');
  if (NUMBER_LIKE.test(term) && digits !== '') {
    const number = term.startsWith('+') ? `${digits}%` : `%${digits}%`;
    return {
      sql: `(${columns.number} LIKE @qNumber ESCAPE '\\' OR ${CONTAINS(columns.text[0], '@qText')})`,
      params: { qNumber: number, qText: text },
    };
  }
  return { sql: `(${columns.text.map((c) => CONTAINS(c, '@qText')).join(' OR ')})`, params: { qText: text } };
}

/** The conditions of a search (joined with AND by the caller, beside its own) and their parameters. */
export function searchConditions(
  columns: SearchColumns,
  f: SearchFilter,
): { conditions: string[]; params: Record<string, string | number> } {
  const conditions: string[] = [];
  const params: Record<string, string | number> = {};
  if (f.since !== undefined) {
    conditions.push(`${columns.time} >= @since`);
    params.since = f.since;
  }
  if (f.until !== undefined) {
    conditions.push(`${columns.time} < @until`);
    params.until = f.until;
  }
  const term = f.q === undefined ? undefined : termCondition(columns, f.q);
  if (term) {
    conditions.push(term.sql);
    Object.assign(params, term.params);
  }
  if (f.tag !== undefined) {
    if (columns.tags === undefined) throw new Error('this search has no tags column');
    // The key is a JSON path member, quoted: a key may hold dots. Keys never hold a quote (message-tags.ts).
    const tags = columns.tags;
    conditions.push(`CASE WHEN json_valid(${tags}) THEN json_extract(${tags}, @tagPath) END = @tagValue`);
    params.tagPath = `$."${f.tag.key}"`;
    params.tagValue = f.tag.value;
  }
  return { conditions, params };
}

/** `WHERE a AND b`, or nothing for no condition. */
export const whereOf = (conditions: readonly string[]) =>
  conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;

/**
 * Statements by their SQL, each prepared the first time it is asked for; registers
 * search_fold on the connection (once per store: registering again replaces it).
 */
export function searchStatements(db: Db): (sql: string) => Database.Statement {
  db.function('search_fold', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? fold(value) : value,
  );
  const prepared = new Map<string, Database.Statement>();
  return (sql) => {
    let stmt = prepared.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      prepared.set(sql, stmt);
    }
    return stmt;
  };
}
