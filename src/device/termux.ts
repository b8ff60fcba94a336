// The ONLY place that spawns termux-* (and other device) commands. Termux:API commands
// block forever when the app is missing or frozen, exit 0 when they fail, and report a
// missing permission as {"error": "..."} on stdout. So every call here: runs without a
// shell, in its own process group (the script's grandchild does the waiting), with a
// timeout that kills the whole group, and is judged on exit code, time and stdout (the
// judging is command-answer.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { accessSync, closeSync, constants, openSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { exitFailure, judgeAnswer, spawnFailure, type Expect, type Outcome } from './command-answer.js';

export { termuxError, type RunFailure } from './command-answer.js';

export type RunResult = Outcome & { ms: number };

export interface RunOptions {
  timeoutMs: number;
  /**
   * The command's whole stdin. Given to it as an already-written file (opened, then
   * unlinked, before the spawn), never through a pipe written after it: a gateway killed
   * between the spawn and the write would otherwise leave the command reading an empty
   * text (an empty SMS). Without it (or empty) stdin is /dev/null and no file is written.
   */
  input?: string;
  /** 'json': stdout must be JSON; 'text': any non-empty text; 'none': output ignored. */
  expect: Expect;
  /** Output beyond this is cut off (protects memory from a runaway command). */
  maxOutputBytes?: number;
  env?: NodeJS.ProcessEnv;
  /**
   * Called right after the spawn with the child's pid, which is also its process group's
   * id (the group outlives this process if it dies: the caller may record it to clean up).
   */
  onSpawn?: (pid: number) => void;
}

/** Finds an executable on PATH without running anything. */
export function findOnPath(name: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

/** A timeout timer this late means the process was frozen, not the command slow. */
const FREEZE_LATE_MS = 500;
const FREEZE_GRACE_MS = 1000;
/** The most a command may print before it is cut off (a Termux:API answer is a few KB). */
const MAX_OUTPUT_BYTES = 1024 * 1024;

export function runCommand(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const started = performance.now();
  const maxBytes = opts.maxOutputBytes ?? MAX_OUTPUT_BYTES;
  const env = opts.env ?? process.env;
  const stdin = prepare(command, env, opts.input);
  if (typeof stdin === 'object') return Promise.resolve(stdin);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: Outcome) => {
      if (settled) return;
      settled = true;
      timeout.clear();
      resolve({ ...r, ms: Math.round(performance.now() - started) });
    };

    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(command, args, {
        stdio: [stdin, 'pipe', 'pipe'],
        detached: true, // own process group, so the timeout can kill grandchildren too
        env,
        shell: false,
      });
    } finally {
      if (stdin !== 'ignore') closeSync(stdin); // the child has its own copy
    }

    const timeout = freezeTolerantTimeout(opts.timeoutMs, () => {
      killGroup(child);
      finish({ ok: false, failure: 'timeout', detail: `no answer within ${opts.timeoutMs} ms` });
    });
    const output = captureOutput(child, maxBytes);

    if (child.pid !== undefined && opts.onSpawn) {
      try {
        opts.onSpawn(child.pid);
      } catch {
        // the caller's bookkeeping never stops the command
      }
    }

    child.on('error', (err: NodeJS.ErrnoException) => finish(spawnFailure(command, err)));
    child.on('close', (code, signal) => {
      if (code !== 0) finish(exitFailure(command, code, signal, output.errText()));
      else finish(judgeAnswer(output.stdout(), opts.expect));
    });

    child.unref();
  });
}

/** Kills the command's whole process group (the script's grandchildren too). */
function killGroup(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * A timeout that is not fooled by a frozen process. A timer that fires late means this
 * process was frozen (SIGSTOP, Android's freezer): the command may well have finished
 * meanwhile, and its exit is still waiting in the event loop. Look once more after
 * FREEZE_GRACE_MS before calling it a timeout.
 */
function freezeTolerantTimeout(timeoutMs: number, onExpired: () => void): { clear(): void } {
  const armedAt = performance.now();
  let graced = false;
  const onTimeout = () => {
    const late = performance.now() - armedAt - timeoutMs;
    if (late > FREEZE_LATE_MS && !graced) {
      graced = true;
      timer = setTimeout(onTimeout, FREEZE_GRACE_MS);
      return;
    }
    onExpired();
  };
  let timer = setTimeout(onTimeout, timeoutMs);
  return { clear: () => clearTimeout(timer) };
}

/** The command's stdout (cut at maxBytes) and the start of its stderr, as they arrive. */
function captureOutput(child: ChildProcess, maxBytes: number) {
  const out: Buffer[] = [];
  let outBytes = 0;
  let errText = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    if (outBytes < maxBytes) out.push(chunk);
    outBytes += chunk.length;
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    if (errText.length < 2000) errText += chunk.toString('utf8');
  });
  return {
    stdout: () => Buffer.concat(out).toString('utf8').slice(0, maxBytes),
    errText: () => errText,
  };
}

/**
 * What the spawn needs first: the command on PATH (one that is not installed is never
 * spawned: a fork costs more than the lookup), and stdin: /dev/null without input (no file
 * written), else an unlinked file. A failure here is the result, and nothing runs.
 */
function prepare(command: string, env: NodeJS.ProcessEnv, input: string | undefined): number | 'ignore' | RunResult {
  if (!command.includes('/') && findOnPath(command, env) === undefined) {
    return { ok: false, failure: 'not_found', detail: `${command} is not installed (not found on PATH)`, ms: 0 };
  }
  try {
    return input ? stdinFile(input) : 'ignore';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? 'error';
    return {
      ok: false,
      failure: 'api_error',
      detail: `could not prepare the input for ${command} (${code}); nothing was run`,
      ms: 0,
    };
  }
}

/**
 * An open, already-unlinked file holding `text` (0600; nothing stays on disk). The file is
 * kept (not a pipe) for the crash safety RunOptions.input describes: Node cannot fill a
 * pipe before the spawn. Three system calls: created and opened once, unlinked at once,
 * written at offset 0 with a positional write, so the shared file offset the child reads
 * from stays at the start.
 */
function stdinFile(text: string): number {
  const path = join(tmpdir(), `smsgw-stdin-${randomBytes(8).toString('hex')}`);
  const fd = openSync(path, 'wx+', 0o600);
  try {
    unlinkSync(path);
    const bytes = Buffer.from(text, 'utf8');
    for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, done);
    return fd;
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}
