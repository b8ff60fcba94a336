// The gateway's warnings and errors (table log_entries, the newest LOGS_KEPT): added in batches
// by status/log-keeper.ts, each batch and the trim to LOGS_KEPT one transaction; read by
// SMSGate's GET /logs in the order they were logged, within a time range (both ends inclusive).
import type { Db } from './database.js';
import { transaction } from './transaction.js';

export const LOGS_KEPT = 1000;

export type LogPriority = 'WARN' | 'ERROR';

export interface NewLogEntry {
  /** Wall-clock ms the line was logged. */
  at: number;
  priority: LogPriority;
  module: string;
  message: string;
  /** The line's other fields as JSON text, or null. */
  context: string | null;
}

export interface LogEntryRow extends NewLogEntry {
  id: number;
}

export function createLogEntriesStore(db: Db) {
  const insertStmt = db.prepare(`
    INSERT INTO log_entries (at, priority, module, message, context)
    VALUES (@at, @priority, @module, @message, @context)`);
  const trimStmt = db.prepare(`
    DELETE FROM log_entries
    WHERE id <= (SELECT id FROM log_entries ORDER BY id DESC LIMIT 1 OFFSET ${LOGS_KEPT})`);
  const rangeStmt = db.prepare(`
    SELECT id, at, priority, module, message, context FROM log_entries
    WHERE at BETWEEN @from AND @to ORDER BY id`);
  const add = transaction(db, (entries: readonly NewLogEntry[]) => {
    for (const e of entries) insertStmt.run(e);
    trimStmt.run();
  });
  return {
    /** Adds a batch and keeps the newest LOGS_KEPT, in one transaction. */
    add(entries: readonly NewLogEntry[]): void {
      if (entries.length > 0) add(entries);
    },
    /** The entries logged from `from` to `to` (wall-clock ms, both inclusive), oldest first. */
    range: (from: number, to: number): LogEntryRow[] => rangeStmt.all({ from, to }) as LogEntryRow[],
  };
}

export type LogEntriesStore = ReturnType<typeof createLogEntriesStore>;
