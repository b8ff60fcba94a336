// sms-gateway service install | uninstall: supervision by runit through termux-services.
// install writes $PREFIX/var/service/sms-gateway/run (exec the gateway in the foreground;
// its own settings come from $SMS_GATEWAY_HOME/.env) and log/run (svlogd: timestamped,
// rotated at 1 MB, 5 files kept), idempotently. runit restarts the gateway after a crash.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { loadConfig } from '../../core/config.js';
import { findOnPath, runCommand } from '../../device/termux.js';
import { ensureDir, writeFileAtomic } from '../../core/fs-util.js';
import type { CommandContext } from '../context.js';

export const serviceHelp = `Usage: sms-gateway service install | uninstall

  install     write the termux-services (runit) service $PREFIX/var/service/sms-gateway:
              run (the gateway in the foreground) and log/run (svlogd, rotated logs in
              $PREFIX/var/log/sv/sms-gateway). runit restarts the gateway if it dies.
              Safe to run again. Then: sv up sms-gateway (or restart Termux).
  uninstall   stop the service and remove its directory (logs are kept).
Needs pkg install termux-services. Settings go in $SMS_GATEWAY_HOME/.env.
`;

const CLI_PATH = join(PACKAGE_ROOT, 'bin', 'sms-gateway');

/** Shell-quotes one word for the generated scripts (single quotes, nothing expands). */
export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const q = shellQuote;

export function servicePaths(prefix: string) {
  const dir = join(prefix, 'var', 'service', 'sms-gateway');
  return {
    dir,
    run: join(dir, 'run'),
    logRun: join(dir, 'log', 'run'),
    logDir: join(prefix, 'var', 'log', 'sv', 'sms-gateway'),
  };
}

export function runScript(opts: { shell: string; prefix: string; home: string; node: string; cli: string }): string {
  return [
    `#!${opts.shell}`,
    '# sms-gateway under runit (written by `sms-gateway service install`; run it again after moving things).',
    'exec 2>&1',
    `export PATH=${q(join(opts.prefix, 'bin'))}:"$PATH"`,
    `export SMS_GATEWAY_HOME=${q(opts.home)}`,
    `exec ${q(opts.node)} ${q(opts.cli)} start`,
    '',
  ].join('\n');
}

export function logRunScript(opts: { shell: string; svlogd: string; logDir: string }): string {
  return [
    `#!${opts.shell}`,
    '# svlogd keeps the gateway log in the directory below: current + 5 rotated files of 1 MB.',
    `mkdir -p ${q(opts.logDir)}`,
    `printf 's1000000\\nn5\\n' > ${q(join(opts.logDir, 'config'))}`,
    `exec ${q(opts.svlogd)} -tt ${q(opts.logDir)}`,
    '',
  ].join('\n');
}

function writeIfChanged(path: string, content: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  writeFileAtomic(path, content, 0o755);
  return true;
}

export async function serviceCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  if (rest.length > 0 || (action !== 'install' && action !== 'uninstall')) return ctx.usage(serviceHelp);
  const prefix = ctx.env.PREFIX;
  if (!prefix) {
    ctx.stderr.write('sms-gateway: PREFIX is not set: this installs a termux-services (runit) service inside Termux\n');
    return 1;
  }
  const paths = servicePaths(prefix);
  if (action === 'uninstall') {
    if (!existsSync(paths.dir)) {
      ctx.stdout.write(`Not installed (${paths.dir} does not exist).\n`);
      return 0;
    }
    const sv = findOnPath('sv', ctx.env);
    if (sv) await runCommand(sv, ['down', paths.dir], { timeoutMs: 10_000, expect: 'none', env: ctx.env });
    rmSync(paths.dir, { recursive: true, force: true });
    ctx.stdout.write(`Removed ${paths.dir} (logs kept in ${paths.logDir}).\n`);
    return 0;
  }
  const config = loadConfig(ctx.env);
  const shell = findOnPath('sh', ctx.env) ?? join(prefix, 'bin', 'sh');
  const svlogd = findOnPath('svlogd', ctx.env);
  if (!svlogd) {
    ctx.stderr.write('sms-gateway: svlogd is not installed: run `pkg install termux-services`\n');
    return 1;
  }
  ensureDir(join(paths.dir, 'log'));
  const changed = [
    writeIfChanged(paths.run, runScript({ shell, prefix, home: config.home, node: process.execPath, cli: CLI_PATH })),
    writeIfChanged(paths.logRun, logRunScript({ shell, svlogd, logDir: paths.logDir })),
  ];
  ctx.stdout.write(
    changed.some(Boolean)
      ? `Installed ${paths.dir}.\nStart it now with: sv up sms-gateway   (it also starts with Termux, and after a ` +
          `reboot with the boot script: sms-gateway boot install)\nLogs: ${paths.logDir}/current\n`
      : `Already installed: ${paths.dir} is up to date.\n`,
  );
  return 0;
}
