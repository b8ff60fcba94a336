// Fake termux-* executables on a PATH of their own: told how to answer through control
// files, and read back (each call's argv, stdin and start time) by the test.
import { readdirSync, readFileSync, symlinkSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Test } from 'tap';
import { FAKE_TERMUX, tempDir } from './paths.js';

/** Fake termux-* executables in a fresh bin dir; control files in a fresh state dir. */
export function fakeTermux(t: Test, names: string[]) {
  const bin = tempDir(t, 'smsgw-bin-');
  const state = tempDir(t, 'smsgw-fake-');
  for (const name of names) symlinkSync(FAKE_TERMUX, join(bin, name));
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, FAKE_TERMUX_DIR: state };
  return {
    bin,
    state,
    env,
    mode(name: string, mode: string) {
      writeFileSync(join(state, `${name}.mode`), mode);
    },
    output(name: string, text: string) {
      writeFileSync(join(state, `${name}.out`), text);
    },
    /** When each call started (ms since the epoch, from the call file's nanosecond name), oldest first. */
    callTimes(name: string): number[] {
      const dir = join(state, `${name}.calls`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.argv'))
        .map((f) => Number(BigInt(f.split('-')[0]!) / 1_000_000n))
        .sort((a, b) => a - b);
    },
    calls(name: string): { argv: string[]; stdin: Buffer; grandchild?: number }[] {
      const dir = join(state, `${name}.calls`);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((f) => f.endsWith('.argv'))
        .sort()
        .map((f) => {
          const base = join(dir, f.slice(0, -'.argv'.length));
          const argv = readFileSync(`${base}.argv`, 'utf8').split('\0').slice(0, -1);
          const stdin = existsSync(`${base}.stdin`) ? readFileSync(`${base}.stdin`) : Buffer.alloc(0);
          const gc = existsSync(`${base}.grandchild`) ? Number(readFileSync(`${base}.grandchild`, 'utf8')) : undefined;
          return gc === undefined ? { argv, stdin } : { argv, stdin, grandchild: gc };
        });
    },
  };
}
