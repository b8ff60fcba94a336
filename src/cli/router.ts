// argv -> one command. Exit codes: 0 success, 1 failure, 2 usage error (or a bad
// configuration value). Errors are one line on stderr, never a stack trace.
import { VERSION } from '../core/package-root.js';
import { PORT } from '../core/runtime.js';
import { commandContext, runCommand, type CommandModule } from './command-run.js';
import type { CommandContext } from './context.js';

interface Command {
  /** Loaded only when asked for: `start` does not pay for the other commands' imports. */
  load(): Promise<CommandModule>;
  summary: string;
}

const lazy =
  <M extends Record<string, unknown>>(importer: () => Promise<M>, run: keyof M, help: keyof M) =>
  async () => {
    const m = await importer();
    return { run: m[run] as CommandModule['run'], help: m[help] as string };
  };

const COMMANDS: Record<string, Command> = {
  start: {
    load: lazy(() => import('./commands/start.js'), 'startCommand', 'startHelp'),
    summary: `run the gateway on port ${PORT} (foreground)`,
  },
  key: { load: lazy(() => import('./commands/key.js'), 'keyCommand', 'keyHelp'), summary: 'show | rotate the API key' },
  send: {
    load: lazy(() => import('./commands/send.js'), 'sendCommand', 'sendHelp'),
    summary: 'send SMS through the running gateway (now, or queued)',
  },
  queue: {
    load: lazy(() => import('./commands/queue.js'), 'queueCommand', 'queueHelp'),
    summary: 'list | cancel the messages waiting in the queue',
  },
  status: {
    load: lazy(() => import('./commands/status.js'), 'statusCommand', 'statusHelp'),
    summary: 'how the running gateway is doing',
  },
  webhook: {
    load: lazy(() => import('./commands/webhook.js'), 'webhookCommand', 'webhookHelp'),
    summary: 'list | add | remove | test the webhook targets; secret | rotate',
  },
  simulate: {
    load: lazy(() => import('./commands/simulate.js'), 'simulateCommand', 'simulateHelp'),
    summary: 'receive: put an SMS into the simulated inbox (simulated mode)',
  },
  service: {
    load: lazy(() => import('./commands/service.js'), 'serviceCommand', 'serviceHelp'),
    summary: 'install | uninstall the runit service (termux-services)',
  },
  boot: {
    load: lazy(() => import('./commands/boot.js'), 'bootCommand', 'bootHelp'),
    summary: 'install the Termux:Boot start script',
  },
  doctor: {
    load: lazy(() => import('./commands/doctor.js'), 'doctorCommand', 'doctorHelp'),
    summary: 'preflight checks on the phone, each with its fix',
  },
};

export const mainHelp = `sms-gateway ${VERSION}: send SMS through this phone from the local network

Usage: sms-gateway <command> [options]

Commands:
${Object.entries(COMMANDS)
  .map(([name, c]) => `  ${name.padEnd(10)} ${c.summary}`)
  .join('\n')}

Run \`sms-gateway <command> --help\` for a command's options.
`;

export async function main(argv: string[], io: Partial<CommandContext> = {}): Promise<number> {
  const ctx = commandContext(io);
  const { stderr } = ctx;
  const [name, ...args] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    (name === undefined ? stderr : ctx.stdout).write(mainHelp);
    return name === undefined ? 2 : 0;
  }
  if (name === '--version' || name === '-v') {
    ctx.stdout.write(`${VERSION}\n`);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    stderr.write(`sms-gateway: unknown command "${name}"\n\n${mainHelp}`);
    return 2;
  }
  return runCommand(() => command.load(), args, ctx);
}
