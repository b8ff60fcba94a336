// The checks of the gateway's own host: its database (size, integrity, a write error, the
// file deleted under it), the free disk space in its home, and its process (memory, the
// event loop's lag).
import { statSync, statfsSync } from 'node:fs';
import type { SendHealth } from '../sms/send-health.js';
import { isoOrNull as iso } from '../core/clock.js';
import { check, type CheckOf } from './check.js';
import type { RuntimeInfo } from '../core/runtime.js';

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
const fileSize = (path: string) => {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
};

export interface DatabaseFacts {
  dbPath: string;
  historySize: number;
  integrity: { result: string; at: number };
  storageError: SendHealth['storageError'];
  fileDeleted: boolean;
}

export function databaseCheck(f: DatabaseFacts): CheckOf<'database'> {
  const dbValue = {
    sizeBytes: fileSize(f.dbPath),
    walBytes: fileSize(`${f.dbPath}-wal`),
    historySize: f.historySize,
    integrity: f.integrity.result,
    integrityCheckedAt: iso(f.integrity.at),
    lastWriteError: f.storageError ? { code: f.storageError.code, at: iso(f.storageError.at) } : null,
  };
  return f.fileDeleted
    ? check(
        'failing',
        { ...dbValue, fileDeleted: true },
        'gateway.db was deleted while the gateway runs: sends are refused (nothing would be kept). Restart the ' +
          'gateway (sv restart sms-gateway, or stop and start it); it makes a new database.',
      )
    : f.integrity.result !== 'ok'
      ? check(
          'failing',
          dbValue,
          'The database is damaged: stop the gateway, back up gateway.db, and start again (a new one is made if you ' +
            'remove it).',
        )
      : f.storageError
        ? check(
            'failing',
            dbValue,
            `The database cannot be written (${f.storageError.code}): free some space on the phone; sends resume by ` +
              `themselves.`,
          )
        : check('ok', dbValue);
}

export function diskCheck(home: string): CheckOf<'disk'> {
  let free: number | null;
  try {
    const fs = statfsSync(home);
    free = fs.bavail * fs.bsize;
  } catch {
    free = null;
  }
  const diskValue = { freeBytes: free, freeMb: free === null ? null : mb(free) };
  return free === null
    ? check('unknown', diskValue)
    : free < 10 * 1024 * 1024
      ? check('failing', diskValue, 'Less than 10 MB free: sends will fail. Free some space on the phone.')
      : free < 100 * 1024 * 1024
        ? check('degraded', diskValue, 'Less than 100 MB free: free some space on the phone.')
        : check('ok', diskValue);
}

export function processCheck(now: number, runtime: RuntimeInfo, lag: number): CheckOf<'process'> {
  const mem = process.memoryUsage();
  const processValue = {
    uptimeSeconds: Math.round((now - runtime.startedAt) / 1000),
    rssMb: mb(mem.rss),
    heapUsedMb: mb(mem.heapUsed),
    eventLoopLagMs: lag,
    nodeVersion: process.version,
  };
  return lag > 1000
    ? check('degraded', processValue, 'The event loop is slow: the phone is overloaded.')
    : check('ok', processValue);
}
