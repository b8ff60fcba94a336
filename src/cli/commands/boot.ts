// sms-gateway boot install: copies the Termux:Boot script to ~/.termux/boot/ (executable,
// idempotent), with SMS_GATEWAY_HOME as when it ran written in. Termux:Boot runs the files
// there at boot; it does not look into subdirectories, so the script goes in the folder itself.
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { ensureDir, writeFileAtomic } from '../../core/fs-util.js';
import { resolveHome } from '../../core/home.js';
import type { CommandContext } from '../context.js';
import { shellQuote } from './service.js';

export const bootHelp = `Usage: sms-gateway boot install

Copies the Termux:Boot script to ~/.termux/boot/start-sms-gateway. At boot it takes the
wake lock, then starts the termux-services services (see \`sms-gateway service install\`),
or the gateway directly when termux-services is not installed, with the SMS_GATEWAY_HOME
this command runs with written in (run it again after changing it).
Needs the Termux:Boot app (F-Droid), opened once. Safe to run again.
`;

export const BOOT_SCRIPT = join(PACKAGE_ROOT, 'termux-boot', 'start-sms-gateway');

/** The home line of the template, replaced by the home boot install runs with. */
const HOME_LINE = /^export SMS_GATEWAY_HOME=.*$/m;

export function bootScript(template: string, home: string): string {
  if (!HOME_LINE.test(template)) throw new Error('the Termux:Boot template has no SMS_GATEWAY_HOME line');
  return template.replace(HOME_LINE, `export SMS_GATEWAY_HOME=${shellQuote(home)}`);
}

export async function bootCommand(args: string[], ctx: CommandContext): Promise<number> {
  if (args.length !== 1 || args[0] !== 'install') return ctx.usage(bootHelp);
  const dir = join(ctx.env.HOME ?? homedir(), '.termux', 'boot');
  const target = join(dir, 'start-sms-gateway');
  const script = bootScript(readFileSync(BOOT_SCRIPT, 'utf8'), resolveHome(ctx.env));
  if (existsSync(target) && readFileSync(target, 'utf8') === script) {
    ctx.stdout.write(`Already installed: ${target} is up to date.\n`);
    return 0;
  }
  ensureDir(dir);
  writeFileAtomic(target, script, 0o755);
  ctx.stdout.write(`Installed ${target}. Open the Termux:Boot app once so Android lets it run at boot.\n`);
  return 0;
}
