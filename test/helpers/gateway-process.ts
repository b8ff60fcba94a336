// The real gateway as a process: `sms-gateway start` from the built CLI, waited on until it
// answers, killed at the test's end; and the port-8080 lock the tests that start it share.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { releasePortLock, takePortLock } from '../../scripts/port-lock.js';
import { httpGet } from './http.js';
import { CLI, tempDir } from './paths.js';

/** Holds the machine-wide port-8080 lock for the rest of the test (see scripts/port-lock.ts). */
export async function holdPort8080(t: Test): Promise<void> {
  await takePortLock();
  t.teardown(releasePortLock);
}

/**
 * A simulated gateway's environment in a temp home with its inbox watcher on (polling every
 * `pollSeconds`), and its command line (`sms-gateway <args>` run with that environment).
 */
export function simulatedInboxGateway(t: Test, pollSeconds: number, more: NodeJS.ProcessEnv = {}) {
  const home = tempDir(t);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: '/usr/bin:/bin',
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_INBOX: 'true',
    SMS_GATEWAY_INBOX_POLL_SECONDS: String(pollSeconds),
    ...more,
  };
  const cli = (...args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' });
  return { home, env, cli };
}

export interface RunningGateway {
  proc: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

/** Starts `sms-gateway start` (the built CLI) and waits until /health answers. */
export async function startGateway(t: Test, env: NodeJS.ProcessEnv, caller = '127.0.0.1'): Promise<RunningGateway> {
  const proc = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  t.teardown(async () => {
    if (proc.exitCode === null && proc.signalCode === null) {
      proc.kill('SIGKILL');
      await exited;
    }
  });
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`gateway exited early (${proc.exitCode}): ${out}`);
    try {
      const res = await httpGet('/health', {}, caller);
      if (res.status === 200) break;
    } catch (err) {
      if ((err as Error).message.startsWith('contract:')) throw err; // listening, answering wrong
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`gateway did not answer /health: ${out}`);
    await sleep(50);
  }
  return { proc, output: () => out, exited };
}
