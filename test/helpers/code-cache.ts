// V8's code cache of a source made by a plain Node: the tests' proof that a process runs
// under the same compile-relevant flags as a Node started without any.
import { spawnSync } from 'node:child_process';

/**
 * V8's code cache of `source`, made by this Node started without flags. V8 rejects a cache
 * made under flags that change how code is compiled: a process that accepts it runs under
 * the same compile-relevant flags as a plain Node.
 */
export function plainCodeCache(source: string): Buffer {
  const r = spawnSync(
    process.execPath,
    [
      '-e',
      `process.stdout.write(new (require('node:vm').Script)(${JSON.stringify(source)}).createCachedData().toString('base64'))`,
    ],
    { encoding: 'utf8' },
  );
  if (r.status !== 0 || !r.stdout) throw new Error(`no code cache made: ${r.stderr}`);
  return Buffer.from(r.stdout, 'base64');
}
