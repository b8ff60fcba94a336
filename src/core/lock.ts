// One gateway per home: $SMS_GATEWAY_HOME/gateway.lock holds the owner's pid. A lock
// whose process is gone (a crash, a reboot) is taken over.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export class LockError extends Error {
  override name = 'LockError';
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the lock or throws LockError; returns the function that releases it. */
export function acquireLock(home: string): () => void {
  const path = join(home, 'gateway.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return () => {
        try {
          if (readFileSync(path, 'utf8').trim() === String(process.pid)) rmSync(path, { force: true });
        } catch {
          // already gone
        }
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    let owner = NaN;
    try {
      owner = Number.parseInt(readFileSync(path, 'utf8').trim(), 10);
    } catch {
      // vanished between open and read: try again
    }
    if (Number.isInteger(owner) && owner > 0 && owner !== process.pid && processAlive(owner)) {
      throw new LockError(
        `another gateway (pid ${owner}) is already running on ${home}; stop it first (or use another SMS_GATEWAY_HOME)`,
      );
    }
    rmSync(path, { force: true }); // stale: its process is gone
  }
  throw new LockError(`could not take the lock ${path}; remove it if no gateway is running`);
}
