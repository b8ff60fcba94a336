// sms-gateway doctor: a preflight on the phone before the first start. One line per
// check ([ ok ], [FAIL], [warn], [info]) with an indented `fix:` for anything not ok,
// then a one-line summary; exit 1 when a required check fails. The Termux:API probes
// (pm, telephony, sms-list, getprop) run in parallel, so a frozen Termux:API costs one
// timeout, not four. Every command goes through device/termux.ts. Never reads the key.
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { request } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config.js';
import { resolveHome } from '../home.js';
import { ensurePrivateDir } from '../fs-util.js';
import { findOnPath, runCommand, type RunResult } from '../device/termux.js';
import { parseProps, parseTelephony } from '../device/probes.js';
import { ANDROID_SMS_LIMIT } from '../status/diagnostics.js';
import { BUDGET_SEGMENTS } from '../sms/send-budget.js';
import type { CommandContext } from '../cli.js';

const DEFAULT_TIMEOUT_MS = 10_000;
const TIMEOUT_VAR = 'SMS_GATEWAY_DOCTOR_TIMEOUT_MS';
const PORT = 8080;
const HEALTH_TIMEOUT_MS = 2000;

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

type Finding =
  | { status: 'ok'; name: string; finding: string }
  | { status: 'fail' | 'warn' | 'info'; name: string; finding: string; fix: [string, ...string[]] };

const TAGS: Record<Finding['status'], string> = { ok: '[ ok ]', fail: '[FAIL]', warn: '[warn]', info: '[info]' };
const INDENT = ' '.repeat(TAGS.ok.length + 1);

export function formatFinding(f: Finding): string {
  const lines = [`${TAGS[f.status]} ${f.name}: ${f.finding}`];
  if (f.status !== 'ok') {
    const [first, ...rest] = f.fix;
    lines.push(`${INDENT}fix: ${first}`, ...rest.map((l) => `${INDENT}     ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

function doctorTimeout(env: NodeJS.ProcessEnv): number {
  const raw = env[TIMEOUT_VAR]?.trim();
  if (raw === undefined || raw === '') return DEFAULT_TIMEOUT_MS;
  const ms = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(ms >= 1 && ms <= 600_000)) {
    throw new ConfigError(`invalid ${TIMEOUT_VAR}=${JSON.stringify(raw)}: must be a whole number of milliseconds from 1 to 600000`);
  }
  return ms;
}

const PKG_TERMUX_API = 'pkg install termux-api';
const OPEN_API_APP = 'open the Termux:API app once; exempt Termux and Termux:API from battery optimisation';
const INSTALL_API_APP =
  'install Termux:API from F-Droid (https://f-droid.org/packages/com.termux.api/), the same source as Termux, and open it once';

// --- the checks -----------------------------------------------------------------------

/** better-sqlite3 13 (and Fastify's cookie@2) need Node 22; Termux ships 24 (nodejs-lts) and 26. */
export function nodeVersionOk(version: string): boolean {
  const major = Number.parseInt(version.replace(/^v/, '').split('.')[0] ?? '', 10);
  return major >= 22;
}

function nodeCheck(): Finding {
  if (nodeVersionOk(process.version)) return { status: 'ok', name: 'Node.js', finding: `${process.version} (22 or newer needed)` };
  return {
    status: 'fail',
    name: 'Node.js',
    finding: `${process.version} is too old: 22 or newer is needed`,
    fix: ['pkg install nodejs-lts', 'then, in the project folder: rm -rf node_modules && npm install'],
  };
}

async function sqliteCheck(): Promise<Finding> {
  try {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(':memory:');
    try {
      const row = db.prepare('SELECT sqlite_version() AS v').get() as { v: string };
      return { status: 'ok', name: 'better-sqlite3', finding: `loads and opens a database (SQLite ${row.v})` };
    } finally {
      db.close();
    }
  } catch (err) {
    const root = fileURLToPath(new URL('../../', import.meta.url));
    return {
      status: 'fail',
      name: 'better-sqlite3',
      finding: `cannot load or open a database: ${firstLine((err as Error).message)}`,
      fix: ['pkg install python make clang', `then: cd ${root} && npm rebuild better-sqlite3`],
    };
  }
}

function packageCheck(env: NodeJS.ProcessEnv): Finding {
  const path = findOnPath('termux-sms-send', env);
  if (path) return { status: 'ok', name: 'termux-api package', finding: `termux-sms-send found at ${path}` };
  return { status: 'fail', name: 'termux-api package', finding: 'termux-sms-send is not on PATH', fix: [PKG_TERMUX_API] };
}

function apiAppCheck(r: RunResult): Finding {
  const name = 'Termux:API app';
  if (r.ok && /^package:/m.test(r.stdout)) return { status: 'ok', name, finding: 'installed (com.termux.api)' };
  if (!r.ok && r.failure === 'not_found') {
    return {
      status: 'fail',
      name,
      finding: '`pm` is not found: this does not look like Android/Termux',
      fix: ['run sms-gateway doctor inside Termux on the Android phone'],
    };
  }
  if (!r.ok && r.failure === 'timeout') {
    return { status: 'fail', name, finding: `\`pm path com.termux.api\` did not answer (${r.detail})`, fix: ['restart Termux and run sms-gateway doctor again'] };
  }
  // pm answers "not installed" with exit code 1 and no output.
  const notInstalled = r.ok || r.failure === 'no_output' || (r.failure === 'api_error' && /exited with code 1\b/.test(r.detail));
  return {
    status: 'fail',
    name,
    finding: notInstalled ? 'com.termux.api is not installed' : `\`pm path com.termux.api\` failed: ${r.detail}`,
    fix: [INSTALL_API_APP],
  };
}

/** "android.permission.READ_PHONE_STATE" in Termux:API's error text -> "READ_PHONE_STATE". */
function permissionNames(detail: string): string {
  const names = [...detail.matchAll(/android\.permission\.([A-Z_]+)/g)].map((m) => m[1]!);
  return names.length > 0 ? [...new Set(names)].join(', ') : 'a permission';
}

function telephonyCheck(r: RunResult): Finding {
  const name = 'Termux:API and SIM';
  if (r.ok) {
    const t = parseTelephony(r.json);
    const facts = `carrier ${t.carrier ?? 'unknown'}, SIM state ${t.simState ?? 'unknown'}, phone_count ${t.simCount ?? 'unknown'}`;
    if (t.simState?.toLowerCase() === 'ready') return { status: 'ok', name, finding: `Termux:API answers; ${facts}` };
    return {
      status: 'fail',
      name,
      finding: `the SIM is not ready; ${facts}`,
      fix: ['insert the SIM card and unlock it (enter its PIN), then check it shows a carrier in the status bar'],
    };
  }
  switch (r.failure) {
    case 'not_found':
      return { status: 'fail', name, finding: 'termux-telephony-deviceinfo is not on PATH', fix: [PKG_TERMUX_API] };
    case 'timeout':
      return { status: 'fail', name, finding: `Termux:API does not answer (${r.detail})`, fix: [OPEN_API_APP] };
    case 'permission_denied':
      return {
        status: 'fail',
        name,
        finding: `Termux:API is missing the ${permissionNames(r.detail)} permission`,
        fix: ['Settings > Apps > Termux:API > Permissions > Phone: Allow'],
      };
    default:
      return { status: 'fail', name, finding: `termux-telephony-deviceinfo failed: ${r.detail}`, fix: [OPEN_API_APP, INSTALL_API_APP] };
  }
}

function smsReadCheck(r: RunResult): Finding {
  const name = 'READ_SMS permission';
  if (r.ok) return { status: 'ok', name, finding: 'granted (termux-sms-list answers)' };
  const why = 'only needed for sent-box confirmation and sms.received events';
  switch (r.failure) {
    case 'permission_denied':
      return {
        status: 'warn',
        name,
        finding: `not granted (${permissionNames(r.detail)}); ${why}`,
        fix: ['Settings > Apps > Termux:API > Permissions > SMS: Allow'],
      };
    case 'not_found':
      return { status: 'warn', name, finding: `termux-sms-list is not on PATH; ${why}`, fix: [PKG_TERMUX_API] };
    case 'timeout':
      return { status: 'warn', name, finding: `termux-sms-list does not answer (${r.detail}); ${why}`, fix: [OPEN_API_APP] };
    default:
      return { status: 'warn', name, finding: `termux-sms-list failed: ${r.detail}; ${why}`, fix: [OPEN_API_APP] };
  }
}

function smsSendInfo(): Finding {
  return {
    status: 'info',
    name: 'SEND_SMS permission',
    finding: 'cannot be checked without sending an SMS',
    fix: [
      'Settings > Apps > Termux:API > Permissions > SMS: Allow',
      'after `sms-gateway start`, try: sms-gateway send <your own number> test',
    ],
  };
}

type PortState = { free: true; host: string } | { free: false; error: NodeJS.ErrnoException };

function tryListen(host: string): Promise<PortState> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ free: false, error }));
    server.listen({ port: PORT, host, exclusive: true }, () => server.close(() => resolve({ free: true, host })));
  });
}

/** GET /health on loopback; the parsed JSON body of a 200, else undefined. */
function getHealth(): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request(
      { host: '127.0.0.1', port: PORT, path: '/health', agent: false, timeout: HEALTH_TIMEOUT_MS, headers: { connection: 'close' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          if (body.length > 64 * 1024) req.destroy();
        });
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? JSON.parse(body) : undefined);
          } catch {
            resolve(undefined);
          }
        });
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

async function portCheck(): Promise<Finding> {
  const name = `port ${PORT}`;
  let state = await tryListen('::');
  // No IPv6 on this phone: the gateway binds IPv4 only, so test that.
  if (!state.free && (state.error.code === 'EAFNOSUPPORT' || state.error.code === 'EADDRNOTAVAIL')) state = await tryListen('0.0.0.0');
  if (state.free) return { status: 'ok', name, finding: `free (listened on ${state.host} and closed)` };
  if (state.error.code !== 'EADDRINUSE') {
    return {
      status: 'fail',
      name,
      finding: `cannot listen on port ${PORT}: ${state.error.code ?? state.error.message}`,
      fix: ['run sms-gateway inside Termux as its own user (not through su)'],
    };
  }
  const health = await getHealth();
  if (health && typeof health === 'object') {
    const h = health as { status?: unknown; version?: unknown };
    if (h.status === 'ok' && typeof h.version === 'string') {
      return { status: 'ok', name, finding: `a gateway is already running on port ${PORT} (version ${h.version})` };
    }
  }
  return {
    status: 'fail',
    name,
    finding: `port ${PORT} is used by another program (it does not answer /health like a gateway)`,
    fix: [`stop the other program that listens on port ${PORT} (the gateway's port is fixed)`],
  };
}

function dataDirCheck(home: string): Finding {
  const name = 'data directory';
  const probe = join(home, `.doctor-${randomBytes(6).toString('hex')}.tmp`);
  try {
    ensurePrivateDir(home);
    writeFileSync(probe, 'doctor\n', { flag: 'wx', mode: 0o600 });
    rmSync(probe);
    return { status: 'ok', name, finding: `${home} is writable` };
  } catch (err) {
    rmSync(probe, { force: true });
    const e = err as NodeJS.ErrnoException;
    return {
      status: 'fail',
      name,
      finding: `${home} is not writable: ${e.code ?? firstLine(e.message)}`,
      fix: [
        `make ${home} a directory Termux's user can write (mkdir -p ${home} && chmod 700 ${home}),`,
        'or set SMS_GATEWAY_HOME to a directory inside Termux\'s home (default ~/.sms-gateway)',
      ],
    };
  }
}

function wakeLockInfo(): Finding {
  return {
    status: 'info',
    name: 'wake lock and battery',
    finding: 'Android stops background apps that hold no wake lock',
    fix: [
      'run termux-wake-lock before starting (the Termux:Boot script does it)',
      'Android Settings > Apps > Termux and Termux:API > Battery: Unrestricted',
    ],
  };
}

const PHANTOM_12L = 'adb shell "settings put global settings_enable_monitor_phantom_procs false"';
const PHANTOM_12 =
  'adb shell "/system/bin/device_config set_sync_disabled_for_tests persistent; /system/bin/device_config put activity_manager max_phantom_processes 2147483647"';

function phantomCheck(r: RunResult): Finding {
  const name = 'phantom process killer';
  const sdk = r.ok ? parseProps(r.stdout).sdk : null;
  if (sdk === null) {
    return {
      status: 'info',
      name,
      finding: 'cannot tell the Android version (getprop did not answer); Android 12 and newer kill background child processes',
      fix: [`Android 12L/13+: ${PHANTOM_12L}`, `Android 12 (SDK 31): ${PHANTOM_12}`],
    };
  }
  if (sdk < 31) return { status: 'ok', name, finding: `Android SDK ${sdk}: no phantom process killer (before Android 12)` };
  return {
    status: 'warn',
    name,
    finding: `Android SDK ${sdk}: Android 12+ may kill the gateway as a "phantom process"; turn that off from a computer (adb)`,
    fix: [sdk === 31 ? PHANTOM_12 : PHANTOM_12L],
  };
}

function smsLimitInfo(): Finding {
  return {
    status: 'info',
    name: 'Android SMS limit',
    finding: `Android asks for confirmation past ${ANDROID_SMS_LIMIT} SMS segments per minute per app; the gateway allows ${BUDGET_SEGMENTS}`,
    fix: [`adb shell settings put global sms_outgoing_check_max_count ${BUDGET_SEGMENTS}`],
  };
}

const firstLine = (s: string) => s.split('\n')[0]!.slice(0, 300);

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
    run('pm', ['path', 'com.termux.api'], 'text'),
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
  report(apiAppCheck(pm));
  report(telephonyCheck(telephony));
  report(smsReadCheck(smsList));
  report(smsSendInfo());
  report(await port);
  if (configProblem) report(configProblem);
  report(dataDirCheck(home));
  report(wakeLockInfo());
  report(phantomCheck(getprop));
  report(smsLimitInfo());

  const count = (s: Finding['status']) => findings.filter((f) => f.status === s).length;
  const failed = count('fail');
  ctx.stdout.write(
    `Summary: ${count('ok')} ok, ${failed} FAIL, ${count('warn')} warn, ${count('info')} info: ${
      failed > 0 ? 'fix the [FAIL] lines, then run `sms-gateway doctor` again.' : 'ready for `sms-gateway start`.'
    }\n`,
  );
  return failed > 0 ? 1 : 0;
}
