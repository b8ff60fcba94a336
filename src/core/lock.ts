// One gateway per home, with a lock the kernel releases when its holder dies: an open
// SQLite transaction (BEGIN IMMEDIATE, which SQLite backs with a POSIX record lock) on
// $SMS_GATEWAY_HOME/gateway.lock.db, held for the life of the process. A crash, a kill -9
// or a reboot leaves nothing that blocks the next start, whatever process now has the old
// pid; only a live gateway on the same home does. Two starters racing: exactly one wins.
// gateway.pid names the holder, for the message only. The lock file itself is never
// removed (unlinking it could let two starters lock two different files).
import Database from 'better-sqlite3';
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from './fs-util.js';

export class LockError extends Error {
  override name = 'LockError';
}

export const LOCK_FILE = 'gateway.lock.db';
export const PID_FILE = 'gateway.pid';
/** 0.1 kept the owner's pid in this file; it no longer means anything and is removed. */
const LEGACY_LOCK_FILE = 'gateway.lock';

/** Takes the lock or throws LockError; returns the function that releases it. */
export function acquireLock(home: string): () => void {
  const path = join(home, LOCK_FILE);
  let opened: Database.Database | undefined;
  try {
    opened = new Database(path, { timeout: 0 });
    chmodSync(path, 0o600);
    opened.exec('BEGIN IMMEDIATE');
  } catch (err) {
    opened?.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') {
      const owner = readPid(home);
      throw new LockError(
        `another gateway${owner ? ` (pid ${owner})` : ''} is already running on ${home}; stop it first (or use ` +
          `another SMS_GATEWAY_HOME)`,
      );
    }
    throw new LockError(`could not take the lock ${path}: ${(err as Error).message}`);
  }
  const db = opened;
  rmSync(join(home, LEGACY_LOCK_FILE), { force: true });
  writeFileAtomic(join(home, PID_FILE), `${process.pid}\n`, 0o600);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    if (readPid(home) === process.pid) rmSync(join(home, PID_FILE), { force: true });
    try {
      db.exec('ROLLBACK');
    } finally {
      db.close();
    }
  };
}

function readPid(home: string): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(join(home, PID_FILE), 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}
