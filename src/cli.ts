// argv -> one command. Exit codes: 0 success, 1 failure, 2 usage error (or a bad
// configuration value). Errors are one line on stderr, never a stack trace.
import { ConfigError } from './config.js';
import { StartupError } from './gateway.js';
import { KeyFileError } from './keys.js';
import { LockError } from './lock.js';
import { VERSION } from './version.js';
import { keyCommand, keyHelp } from './commands/key.js';
import { startCommand, startHelp } from './commands/start.js';
import { sendCommand, sendHelp } from './commands/send.js';
import { statusCommand, statusHelp } from './commands/status.js';
import { webhookCommand, webhookHelp } from './commands/webhook.js';
import { serviceCommand, serviceHelp } from './commands/service.js';
import { bootCommand, bootHelp } from './commands/boot.js';
import { doctorCommand, doctorHelp } from './commands/doctor.js';

export interface CommandContext {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream | (NodeJS.WritableStream & { isTTY?: boolean });
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadStream | (NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?: (on: boolean) => void });
  /** Prints the usage text to stderr and returns exit code 2. */
  usage(text: string): number;
}

interface Command {
  run(args: string[], ctx: CommandContext): Promise<number>;
  help: string;
  summary: string;
}

const COMMANDS: Record<string, Command> = {
  start: { run: startCommand, help: startHelp, summary: 'run the gateway on port 8080 (foreground)' },
  key: { run: keyCommand, help: keyHelp, summary: 'show | rotate the API key' },
  send: { run: sendCommand, help: sendHelp, summary: 'send one SMS through the running gateway' },
  status: { run: statusCommand, help: statusHelp, summary: 'how the running gateway is doing' },
  webhook: { run: webhookCommand, help: webhookHelp, summary: 'secret | rotate | test the signed webhooks' },
  service: { run: serviceCommand, help: serviceHelp, summary: 'install | uninstall the runit service (termux-services)' },
  boot: { run: bootCommand, help: bootHelp, summary: 'install the Termux:Boot start script' },
  doctor: { run: doctorCommand, help: doctorHelp, summary: 'preflight checks on the phone, each with its fix' },
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
  const stderr = io.stderr ?? process.stderr;
  const ctx: CommandContext = {
    env: io.env ?? process.env,
    stdout: io.stdout ?? process.stdout,
    stderr,
    stdin: io.stdin ?? process.stdin,
    usage(text) {
      stderr.write(text);
      return 2;
    },
  };
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
  if (args.includes('--help') || args.includes('-h')) {
    ctx.stdout.write(command.help);
    return 0;
  }
  try {
    return await command.run(args, ctx);
  } catch (err) {
    if (err instanceof ConfigError) {
      stderr.write(`sms-gateway: ${err.message}\n`);
      return 2;
    }
    if (err instanceof StartupError || err instanceof LockError || err instanceof KeyFileError) {
      stderr.write(`sms-gateway: ${err.message}\n`);
      return 1;
    }
    const e = err as NodeJS.ErrnoException;
    stderr.write(`sms-gateway: ${e.code ? `${e.code}: ` : ''}${e.message}\n`);
    return 1;
  }
}
