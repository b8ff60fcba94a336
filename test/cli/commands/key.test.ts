// sms-gateway key rotate on a home that cannot be written (a full small tmpfs, then the
// same file system read-only): one clear line on stderr, exit 1, no stack trace, and the
// old key stays the key. Needs root to mount a tmpfs (skipped otherwise).
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/paths.js';

const noMount = process.getuid?.() === 0 ? false : 'mounting a tmpfs needs root';

function smallFilesystem(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'smsgw-keyfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,mode=0700', 'tmpfs', dir], { stdio: 'ignore' });
  t.teardown(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

function fill(dir: string) {
  const fd = openSync(join(dir, 'filler'), 'w');
  try {
    for (;;) writeSync(fd, Buffer.alloc(4096, 1));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  } finally {
    closeSync(fd);
  }
}

t.test('show and rotate on a writable home', async (t) => {
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  const a = await runCli(['key', 'rotate'], env);
  t.equal(a.code, 0);
  t.match(a.out, /^sk_local_\S+\n$/);
  t.equal((await runCli(['key', 'show'], env)).out, a.out);
  const r = await runCli(['key', 'rotate'], env);
  t.equal(r.code, 0);
  t.not(r.out, a.out);
});

t.test(
  'rotate on a full home, then a read-only one: one line, exit 1, the old key kept',
  { skip: noMount },
  async (t) => {
    const dir = smallFilesystem(t);
    const env = { SMS_GATEWAY_HOME: join(dir, 'home') };
    const before = (await runCli(['key', 'rotate'], env)).out;
    t.match(before, /^sk_local_\S+\n$/);
    fill(dir);
    const full = await runCli(['key', 'rotate'], env);
    t.equal(full.code, 1, 'full: exit 1');
    t.equal(full.out, '', 'full: no key printed');
    t.match(
      full.err,
      /^sms-gateway: cannot write the API key in \S+ \(no space left on the device\)\. The key was not rotated: the old one stays in use\. [^\n]*\n$/,
    );
    t.equal((await runCli(['key', 'show'], env)).out, before, 'full: the old key is still the key');

    rmSync(join(dir, 'filler'));
    execFileSync('mount', ['-o', 'remount,ro', dir], { stdio: 'ignore' });
    const ro = await runCli(['key', 'rotate'], env);
    t.equal(ro.code, 1, 'read-only: exit 1');
    t.match(
      ro.err,
      /^sms-gateway: cannot write the API key in \S+ \(the file system is read-only\)\. The key was not rotated[^\n]*\n$/,
    );
    t.notMatch(ro.err, /\n\s+at /, 'no stack trace');
  },
);
