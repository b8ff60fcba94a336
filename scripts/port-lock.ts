// The port-8080 lock shared by the tests that start the real gateway (test/helpers/gateway-process.ts
// holdPort8080) and by the bench: a directory in the temp dir holding the owner's pid. Port
// 8080 is fixed, and tap runs test files in parallel, so whoever listens on it takes turns
// here. There is one port 8080 per network namespace, so one lock per namespace (named by
// the namespace's inode on Linux): the end-to-end files each run in a namespace of their own
// (test/_e2e.test.ts) and never wait for each other. A lock whose owner is gone is taken over.
import { mkdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** This process's network namespace ("net:[4026531840]" -> "4026531840"), or "" where there is none to read. */
function networkNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/net').replace(/\D/g, '');
  } catch {
    return '';
  }
}

const NAMESPACE = networkNamespace();
export const PORT_LOCK = join(tmpdir(), `sms-gateway-test-port-8080${NAMESPACE ? `-netns-${NAMESPACE}` : ''}.lock`);

/** True while the process exists and is not a zombie (a container's init may not reap). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true;
  }
}

function owner(): number {
  try {
    return Number(readFileSync(join(PORT_LOCK, 'pid'), 'utf8'));
  } catch {
    return NaN; // being created or removed
  }
}

/**
 * Waits until this process holds the lock. `onWait` is called once, with the owner's pid,
 * when the lock is taken by someone else.
 */
export async function takePortLock(opts: { timeoutMs?: number; onWait?: (owner: number) => void } = {}): Promise<void> {
  const deadline = Date.now() + (opts.timeoutMs ?? Number.POSITIVE_INFINITY);
  let announced = false;
  for (;;) {
    try {
      mkdirSync(PORT_LOCK);
      writeFileSync(join(PORT_LOCK, 'pid'), String(process.pid));
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const pid = owner();
    if (Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      rmSync(PORT_LOCK, { recursive: true, force: true });
      continue;
    }
    if (!announced) {
      opts.onWait?.(pid);
      announced = true;
    }
    if (Date.now() > deadline) throw new Error(`the port-8080 lock ${PORT_LOCK} stayed taken`);
    await sleep(100);
  }
}

/** Releases the lock if this process holds it. */
export function releasePortLock(): void {
  if (owner() === process.pid) rmSync(PORT_LOCK, { recursive: true, force: true });
}
