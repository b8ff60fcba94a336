// Two Android traps the doctor's probes can point at, as extra fix lines, judged by the
// Android version (`getprop`'s ro.build.version.release; unknown when getprop did not answer):
// - the cached-apps freezer (Android 11+, biting on 14): Android freezes a cached Termux:API
//   app and the intents sent to it wait, so termux-* calls hang (termux/termux-api#638);
// - restricted settings (Android 13+; from 15 the SMS permission too): for an app installed
//   from F-Droid or a file the SMS switch is greyed out until "Allow restricted settings".
import type { RunResult } from '../../device/termux.js';
import { parseProps } from '../../device/probe-parsers.js';

export const FREEZER_OFF = 'adb shell settings put global cached_apps_freezer disabled';
export const ALLOW_RESTRICTED =
  'Settings > Apps > Termux:API > ⋮ (top right) > Allow restricted settings, then allow SMS again';

/** The Android major version from getprop's answer ("14", "8.1.0" -> 8); null when unknown. */
export function androidMajor(getprop: RunResult): number | null {
  const release = getprop.ok ? parseProps(getprop.stdout).androidVersion : null;
  const major = Number.parseInt(release ?? '', 10);
  return Number.isFinite(major) && major > 0 ? major : null;
}

/** What to add to the fix of a Termux:API call that hung: the freezer, where Android has one. */
export function freezerFix(android: number | null): string[] {
  if (android !== null && android < 11) return [];
  const cause =
    android === null
      ? 'on Android 14 and newer the likely cause is the cached-apps freezer'
      : `Android ${android}: ${android >= 14 ? 'the likely cause is' : 'a possible cause is'} the cached-apps freezer`;
  return [`${cause} (termux-api #638); turn it off from a computer:`, FREEZER_OFF];
}

/** What to add to the fix of an SMS permission error: restricted settings, where Android has them. */
export function restrictedSettingsFix(android: number | null): string[] {
  if (android !== null && android < 13) return [];
  return [
    'switch greyed out ("Restricted setting")? Android 13+ restricts apps installed from F-Droid or a file:',
    ALLOW_RESTRICTED,
  ];
}
