// The CLI's entry for `sms-gateway start` (src/main.ts picks it): the start command without
// the router and the other commands. Bundled on its own (scripts/build.mjs), so the modules
// a start needs load as a few files, not as the chunks they share with the other commands.
import { commandContext, runCommand } from './command-run.js';
import { startCommand, startHelp } from './commands/start.js';
import type { CommandContext } from './context.js';

/** `argv` as the router gets it: `start` and its arguments. */
export function main(argv: string[], io: Partial<CommandContext> = {}): Promise<number> {
  return runCommand(async () => ({ run: startCommand, help: startHelp }), argv.slice(1), commandContext(io));
}
