// The doctor's findings on the Android settings that stop a background gateway: the wake lock and battery
// optimisation, the phantom process killer (Android 12+), and Android's SMS limit per minute.
import { parseProps } from '../../device/probe-parsers.js';
import type { RunResult } from '../../device/termux.js';
import { ANDROID_SMS_LIMIT } from '../../status/diagnostics.js';
import { BUDGET_SEGMENTS } from '../../sms/pacing.js';
import type { Finding } from './report.js';

export function wakeLockInfo(): Finding {
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
  'adb shell "/system/bin/device_config set_sync_disabled_for_tests persistent; /system/bin/device_config put ' +
  'activity_manager max_phantom_processes 2147483647"';

export function phantomCheck(r: RunResult): Finding {
  const name = 'phantom process killer';
  const sdk = r.ok ? parseProps(r.stdout).sdk : null;
  if (sdk === null) {
    return {
      status: 'info',
      name,
      finding:
        'cannot tell the Android version (getprop did not answer); Android 12 and newer kill background child ' +
        'processes',
      fix: [`Android 12L/13+: ${PHANTOM_12L}`, `Android 12 (SDK 31): ${PHANTOM_12}`],
    };
  }
  if (sdk < 31)
    return { status: 'ok', name, finding: `Android SDK ${sdk}: no phantom process killer (before Android 12)` };
  return {
    status: 'warn',
    name,
    finding:
      `Android SDK ${sdk}: Android 12+ may kill the gateway as a "phantom process"; turn that off from a ` +
      `computer (adb)`,
    fix: [sdk === 31 ? PHANTOM_12 : PHANTOM_12L],
  };
}

export function smsLimitInfo(): Finding {
  return {
    status: 'info',
    name: 'Android SMS limit',
    finding:
      `Android asks for confirmation past ${ANDROID_SMS_LIMIT} SMS segments per minute per app; the gateway ` +
      `allows ${BUDGET_SEGMENTS}`,
    fix: [`adb shell settings put global sms_outgoing_check_max_count ${BUDGET_SEGMENTS}`],
  };
}
