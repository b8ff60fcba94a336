// The doctor's checks of the phone, one function each, each returning a finding with
// its fix: Node.js, better-sqlite3, the termux-api package and the Termux:API app, its
// permissions and the SIM, and the data directory. The commands they judge run in
// cli/commands/doctor.ts, through device/termux.ts. The port check is in port.ts; the Android
// settings that stop a background gateway are in android-settings.ts; the Android traps a hang
// or a refused permission points at (freezer, restricted settings) are in traps.ts.
import { randomBytes } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { PACKAGE_ROOT } from '../../core/package-root.js';
import { findOnPath, type RunResult } from '../../device/termux.js';
import { parseTelephony, termuxApiInstalled } from '../../device/probe-parsers.js';
import type { Finding } from './report.js';
import { freezerFix, restrictedSettingsFix } from './traps.js';

const PKG_TERMUX_API = 'pkg install termux-api';
const OPEN_API_APP = 'open the Termux:API app once; exempt Termux and Termux:API from battery optimisation';
const INSTALL_API_APP =
  'install Termux:API from F-Droid (https://f-droid.org/packages/com.termux.api/), the same source as Termux, and ' +
  'open it once';

/** better-sqlite3 13 (and Fastify's cookie@2) need Node 22; Termux ships 24 (nodejs-lts) and 26. */
export function nodeVersionOk(version: string): boolean {
  const major = Number.parseInt(version.replace(/^v/, '').split('.')[0] ?? '', 10);
  return major >= 22;
}

export function nodeCheck(): Finding {
  if (nodeVersionOk(process.version))
    return { status: 'ok', name: 'Node.js', finding: `${process.version} (22 or newer needed)` };
  return {
    status: 'fail',
    name: 'Node.js',
    finding: `${process.version} is too old: 22 or newer is needed`,
    fix: ['pkg install nodejs-lts', 'then, in the project folder: rm -rf node_modules && npm install'],
  };
}

export async function sqliteCheck(): Promise<Finding> {
  try {
    // Imported here: a module that does not load must become a finding, not a crash.
    const { probeSqlite } = await import('../../store/database.js');
    return { status: 'ok', name: 'better-sqlite3', finding: `loads and opens a database (SQLite ${probeSqlite()})` };
  } catch (err) {
    const root = PACKAGE_ROOT;
    return {
      status: 'fail',
      name: 'better-sqlite3',
      finding: `cannot load or open a database: ${firstLine((err as Error).message)}`,
      fix: ['pkg install python make clang', `then: cd ${root} && npm rebuild better-sqlite3`],
    };
  }
}

export function packageCheck(env: NodeJS.ProcessEnv): Finding {
  const path = findOnPath('termux-sms-send', env);
  if (path) return { status: 'ok', name: 'termux-api package', finding: `termux-sms-send found at ${path}` };
  return {
    status: 'fail',
    name: 'termux-api package',
    finding: 'termux-sms-send is not on PATH',
    fix: [PKG_TERMUX_API],
  };
}

export function apiAppCheck(r: RunResult): Finding {
  const name = 'Termux:API app';
  const installed = termuxApiInstalled(r);
  if (installed === true) return { status: 'ok', name, finding: 'installed (com.termux.api)' };
  if (!r.ok && r.failure === 'not_found') {
    return {
      status: 'fail',
      name,
      finding: '`pm` is not found: this does not look like Android/Termux',
      fix: ['run sms-gateway doctor inside Termux on the Android phone'],
    };
  }
  if (!r.ok && r.failure === 'timeout') {
    return {
      status: 'fail',
      name,
      finding: `\`pm path com.termux.api\` did not answer (${r.detail})`,
      fix: ['restart Termux and run sms-gateway doctor again'],
    };
  }
  // An answer without a package line is "not installed" too.
  const failed = r.ok || installed === false || r.failure === 'no_output' ? undefined : r.detail;
  return {
    status: 'fail',
    name,
    finding: failed === undefined ? 'com.termux.api is not installed' : `\`pm path com.termux.api\` failed: ${failed}`,
    fix: [INSTALL_API_APP],
  };
}

/** "android.permission.READ_PHONE_STATE" in Termux:API's error text -> "READ_PHONE_STATE". */
function permissionNames(detail: string): string {
  const names = [...detail.matchAll(/android\.permission\.([A-Z_]+)/g)].map((m) => m[1]!);
  return names.length > 0 ? [...new Set(names)].join(', ') : 'a permission';
}

/** `android`: the phone's Android major version, null when unknown (see traps.ts). */
export function telephonyCheck(r: RunResult, android: number | null): Finding {
  const name = 'Termux:API and SIM';
  if (r.ok) {
    const t = parseTelephony(r.json);
    const facts =
      `carrier ${t.carrier ?? 'unknown'}, SIM state ${t.simState ?? 'unknown'}, phone_count ` +
      `${t.simCount ?? 'unknown'}`;
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
      return {
        status: 'fail',
        name,
        finding: `Termux:API does not answer (${r.detail})`,
        fix: [OPEN_API_APP, ...freezerFix(android)],
      };
    case 'permission_denied':
      return {
        status: 'fail',
        name,
        finding: `Termux:API is missing the ${permissionNames(r.detail)} permission`,
        fix: ['Settings > Apps > Termux:API > Permissions > Phone: Allow'],
      };
    default:
      return {
        status: 'fail',
        name,
        finding: `termux-telephony-deviceinfo failed: ${r.detail}`,
        fix: [OPEN_API_APP, INSTALL_API_APP],
      };
  }
}

export function smsReadCheck(r: RunResult, android: number | null): Finding {
  const name = 'READ_SMS permission';
  if (r.ok) return { status: 'ok', name, finding: 'granted (termux-sms-list answers)' };
  const why = 'only needed for sent-box confirmation and sms.received events';
  switch (r.failure) {
    case 'permission_denied':
      return {
        status: 'warn',
        name,
        finding: `not granted (${permissionNames(r.detail)}); ${why}`,
        fix: ['Settings > Apps > Termux:API > Permissions > SMS: Allow', ...restrictedSettingsFix(android)],
      };
    case 'not_found':
      return { status: 'warn', name, finding: `termux-sms-list is not on PATH; ${why}`, fix: [PKG_TERMUX_API] };
    case 'timeout':
      return {
        status: 'warn',
        name,
        finding: `termux-sms-list does not answer (${r.detail}); ${why}`,
        fix: [OPEN_API_APP, ...freezerFix(android)],
      };
    default:
      return { status: 'warn', name, finding: `termux-sms-list failed: ${r.detail}; ${why}`, fix: [OPEN_API_APP] };
  }
}

export function smsSendInfo(): Finding {
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
/** The home, or the nearest folder above it that exists: where `start` will create it. */
function nearestExisting(dir: string): string {
  while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

/**
 * Probes the home by writing a file, or, before the first start, the folder `start` creates it in (doctor creates no
 * home).
 */
export function dataDirCheck(home: string): Finding {
  const name = 'data directory';
  const where = nearestExisting(home);
  const probe = join(where, `.doctor-${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(probe, 'doctor\n', { flag: 'wx', mode: 0o600 });
    rmSync(probe);
    const finding =
      where === home
        ? `${home} is writable`
        : `${home} does not exist yet; \`sms-gateway start\` creates it (${where} is writable)`;
    return { status: 'ok', name, finding };
  } catch (err) {
    rmSync(probe, { force: true });
    const e = err as NodeJS.ErrnoException;
    return {
      status: 'fail',
      name,
      finding: `${
        where === home ? home : `${where} (where \`sms-gateway start\` would create ` + `${home})`
      } is not writable: ${e.code ?? firstLine(e.message)}`,
      fix: [
        `make ${home} a directory Termux's user can write (mkdir -p ${home} && chmod 700 ${home}),`,
        "or set SMS_GATEWAY_HOME to a directory inside Termux's home (default ~/.sms-gateway)",
      ],
    };
  }
}

const firstLine = (s: string) => s.split('\n')[0]!.slice(0, 300);
