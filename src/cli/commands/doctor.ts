// sms-gateway doctor: a preflight on the phone before the first start. One line per
// check ([ ok ], [FAIL], [warn], [info]) with an indented `fix:` for anything not ok,
// then a one-line summary; exit 1 when a required check fails. The Termux:API probes
// (pm, telephony, sms-list, getprop) run in parallel, so a frozen Termux:API costs one
// timeout, not four. Every command goes through device/termux.ts. Never reads the key.
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../core/config.js';
import { PORT } from '../../core/runtime.js';
import { resolveHome } from '../../core/home.js';
import { runCommand } from '../../device/termux.js';
import { PM_PATH } from '../../device/probe-parsers.js';
import type { CommandContext } from '../context.js';
import {
  apiAppCheck,
  dataDirCheck,
  nodeCheck,
  packageCheck,
  smsReadCheck,
  smsSendInfo,
  sqliteCheck,
  telephonyCheck,
} from '../doctor/checks.js';
import { phantomCheck, smsLimitInfo, wakeLockInfo } from '../doctor/android-settings.js';
import { portCheck } from '../doctor/port.js';
import { androidMajor } from '../doctor/traps.js';
import { formatFinding, summaryLine, type Finding } from '../doctor/report.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const TIMEOUT_VAR = 'SMS_GATEWAY_DOCTOR_TIMEOUT_MS';

export const doctorHelp = `Usage: sms-gateway doctor

Preflight checks on this phone, best run before the first \`sms-gateway start\`:
Node.js, better-sqlite3, the termux-api package and the Termux:API app, its Phone and
SMS permissions and the SIM, port ${PORT}, the data directory ($SMS_GATEWAY_HOME), and the
Android settings that stop a background gateway (battery optimisation, the phantom
process killer, Android's SMS limit).

Prints one line per check: [ ok ], [FAIL], [warn] or [info], its name and what was
found; every line that is not ok is followed by a "fix:" line with the command or
setting to change. Exit 1 when a required check fails, else 0.

Environment (for testing):
  ${TIMEOUT_VAR}   how long each Termux:API probe may take (default ${DEFAULT_TIMEOUT_MS})
`;

function doctorTimeout(env: NodeJS.ProcessEnv): number {
  const raw = env[TIMEOUT_VAR]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_TIMEOUT_MS;
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms >= 1 && ms <= 600_000)) {
    throw new ConfigError(
      `invalid ${TIMEOUT_VAR}=${JSON.stringify(raw)}: must be a whole number of milliseconds from 1 to 600000`,
    );
  }
  return ms;
}

// --- the command ----------------------------------------------------------------------

export async function doctorCommand(args: string[], ctx: CommandContext): Promise<number> {
  if (args.length > 0) return ctx.usage(doctorHelp);
  const timeoutMs = doctorTimeout(ctx.env);

  // A bad configuration value is a finding here, not the end of the run.
  let home: string;
  let configProblem: Finding | undefined;
  try {
    home = loadConfig(ctx.env).home;
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    home = resolveHome(ctx.env);
    configProblem = {
      status: 'fail',
      name: 'configuration',
      finding: err.message,
      fix: [`correct the variable in the environment or in ${join(home, '.env')}`],
    };
  }

  const run = (command: string, argv: string[], expect: 'json' | 'text') =>
    runCommand(command, argv, { timeoutMs, expect, env: ctx.env, maxOutputBytes: 256 * 1024 });
  const probes = Promise.all([
    run(PM_PATH.command, PM_PATH.args, 'text'),
    run('termux-telephony-deviceinfo', [], 'json'),
    run('termux-sms-list', ['-l', '1'], 'json'),
    run('getprop', [], 'text'),
  ]);
  const port = portCheck();

  const findings: Finding[] = [];
  const report = (f: Finding) => {
    findings.push(f);
    ctx.stdout.write(formatFinding(f));
  };

  report(nodeCheck());
  report(await sqliteCheck());
  report(packageCheck(ctx.env));
  const [pm, telephony, smsList, getprop] = await probes;
  const android = androidMajor(getprop);
  report(apiAppCheck(pm));
  report(telephonyCheck(telephony, android));
  report(smsReadCheck(smsList, android));
  report(smsSendInfo());
  report(await port);
  if (configProblem) report(configProblem);
  report(dataDirCheck(home));
  report(wakeLockInfo());
  report(phantomCheck(getprop));
  report(smsLimitInfo());

  ctx.stdout.write(summaryLine(findings));
  return findings.some((f) => f.status === 'fail') ? 1 : 0;
}
