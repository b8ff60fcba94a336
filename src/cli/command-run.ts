// Runs one loaded command as the CLI does: its --help, or the command itself, with an error
// as one line on stderr and the exit code it means (2 a bad configuration value, 1 the rest).
// Shared by the router and the start entry (start-entry.ts), so both end a command alike.
import { ConfigError } from '../core/config.js';
import { StartupError } from '../core/errors.js';
import { KeyFileError } from '../core/keys.js';
import { LockError } from '../core/lock.js';
import type { CommandContext } from './context.js';
import { NoHomeError } from './existing-home.js';

export interface CommandModule {
  run(args: string[], ctx: CommandContext): Promise<number>;
  help: string;
}

/** The context a command runs in: the process's environment and streams unless `io` says otherwise. */
export function commandContext(io: Partial<CommandContext> = {}): CommandContext {
  const stderr = io.stderr ?? process.stderr;
  return {
    env: io.env ?? process.env,
    stdout: io.stdout ?? process.stdout,
    stderr,
    stdin: io.stdin ?? process.stdin,
    usage(text) {
      stderr.write(text);
      return 2;
    },
  };
}

/** Loads the command and runs it (or prints its help); returns the exit code. */
export async function runCommand(
  load: () => Promise<CommandModule>,
  args: string[],
  ctx: CommandContext,
): Promise<number> {
  const { stderr } = ctx;
  try {
    const loaded = await load();
    if (args.includes('--help') || args.includes('-h')) {
      ctx.stdout.write(loaded.help);
      return 0;
    }
    return await loaded.run(args, ctx);
  } catch (err) {
    if (err instanceof ConfigError) {
      stderr.write(`sms-gateway: ${err.message}\n`);
      return 2;
    }
    if (
      err instanceof StartupError ||
      err instanceof LockError ||
      err instanceof KeyFileError ||
      err instanceof NoHomeError
    ) {
      stderr.write(`sms-gateway: ${err.message}\n`);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    stderr.write(`sms-gateway: ${e.code ? `${e.code}: ` : ''}${e.message}\n`);
    return 1;
  }
}
