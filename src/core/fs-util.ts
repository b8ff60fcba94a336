// Small file-system helpers shared by the key files, the lock and the installers:
// a private data directory and atomic writes (temp file + fsync + rename).
import { chmodSync, closeSync, fsyncSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Creates the directory (and parents) if needed and makes it owner-only (0700). */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** Creates the directory (and parents) if needed, leaving existing modes alone. */
export function ensureDir(dir: string): void {
  mkdirSync(dir, { recursive: true });
}

/** Writes `content` to `path` so that readers see either the old file or the new one. */
export function writeFileAtomic(path: string, content: string, mode: number): void {
  const tmp = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    rmSync(tmp, { force: true });
    throw err;
  }
  closeSync(fd);
  chmodSync(tmp, mode);
  renameSync(tmp, path);
}
