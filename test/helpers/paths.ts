// Where the tests find things: the repository's fixed paths (its root, the built CLI, the
// fake termux-* executable) and fresh temp directories removed when the test ends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const FAKE_TERMUX = join(ROOT, 'test/fixtures/bin/fake-termux');
export const CLI = join(ROOT, 'bin/sms-gateway');

export function tempDir(t: Test, prefix = 'smsgw-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}
