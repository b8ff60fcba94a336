// The CLI run in-process (its router's main, or another entry such as start's), with its output captured.
import { PassThrough } from 'node:stream';
import { main } from '../../src/cli/router.js';

/** Runs the CLI in-process with captured output. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = {}, entry: typeof main = main) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d: Buffer) => (out += d.toString()));
  stderr.on('data', (d: Buffer) => (err += d.toString()));
  const code = await entry(argv, { stdout, stderr, env });
  return { code, out, err };
}
