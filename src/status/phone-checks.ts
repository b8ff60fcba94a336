// The checks of what the phone tells through Termux:API (the probes' snapshot): the
// Termux:API app and package, the battery, the Wi-Fi, the SIM and network. A fact the phone
// did not tell makes the check "unknown", never a guess. The snapshot is the one that may
// be shown (device/probes.ts shown()): a reading older than its fact's max age is not in it,
// and each reading says when it was read (readAt).
import type { ProbeName, ProbeState, Snapshot } from '../device/probes.js';
import type { RuntimeInfo } from '../core/runtime.js';
import { isoOrNull as iso } from '../core/clock.js';
import { check, type CheckOf } from './check.js';

export function termuxApiCheck(snap: Snapshot, mode: RuntimeInfo['mode']): CheckOf<'termuxApi'> {
  const probes = Object.fromEntries(Object.entries(snap).map(([k, v]) => [k, v.last])) as Record<
    ProbeName,
    ProbeState<unknown>['last']
  >;
  const termuxProbes = [snap.telephony, snap.battery, snap.wifi];
  const value = { appInstalled: snap.apiApp.value?.installed ?? null, probes };
  if (termuxProbes.every((p) => p.last === 'never'))
    return check('unknown', value, 'The first check of the phone is still running.');
  if (mode === 'simulated' && termuxProbes.every((p) => p.last === 'not_found')) {
    return check('unknown', value, 'Simulated mode: there is no Termux:API on this machine.');
  }
  if (snap.apiApp.value?.installed === false) {
    return check(
      'failing',
      value,
      'The Termux:API app is not installed: install it from F-Droid (the same source as Termux) and open it once.',
    );
  }
  if (termuxProbes.some((p) => p.last === 'not_found')) {
    return check('failing', value, 'The termux-api package is missing: run `pkg install termux-api`.');
  }
  if (termuxProbes.some((p) => p.last === 'timeout')) {
    return check(
      'failing',
      value,
      'Termux:API commands do not answer: open the Termux:API app once, exempt Termux and Termux:API from battery ' +
        'optimisation, and make sure both come from F-Droid.',
    );
  }
  if (termuxProbes.some((p) => p.last === 'permission_denied')) {
    return check(
      'degraded',
      value,
      'Termux:API is missing a permission: Settings > Apps > Termux:API > Permissions: allow SMS, Phone and Location.',
    );
  }
  if (termuxProbes.some((p) => p.last !== 'ok'))
    return check('degraded', value, 'Some Termux:API commands fail: run `sms-gateway doctor`.');
  return check('ok', value);
}

export function batteryCheck(snap: Snapshot): CheckOf<'battery'> {
  const b = snap.battery.value;
  if (!b)
    return check(
      'unknown',
      { level: null, charging: null, temperatureC: null, health: null, readAt: null },
      'The phone did not report its battery.',
    );
  const value = {
    level: b.level,
    charging: b.charging,
    temperatureC: b.temperatureC,
    health: b.health,
    readAt: iso(snap.battery.readAt),
  };
  const hint = 'Keep the phone on its charger; a gateway in a drawer should never run on battery.';
  if (b.level !== null && b.level < 10 && b.charging !== true) return check('failing', value, hint);
  if (b.level !== null && b.level < 20 && b.charging !== true) return check('degraded', value, hint);
  if (b.temperatureC !== null && b.temperatureC >= 45) {
    return check('degraded', value, 'The battery is hot: give the phone air, out of direct sun.');
  }
  return check('ok', value);
}

export function wifiCheck(snap: Snapshot): CheckOf<'wifi'> {
  const w = snap.wifi.value;
  if (!w)
    return check(
      'unknown',
      { ssid: null, ip: null, rssi: null, linkSpeedMbps: null, readAt: null },
      'The phone did not report its Wi-Fi.',
    );
  const value = { ssid: w.ssid, ip: w.ip, rssi: w.rssi, linkSpeedMbps: w.linkSpeedMbps, readAt: iso(snap.wifi.readAt) };
  if (w.ip === null)
    return check('degraded', value, 'Wi-Fi is not connected: clients on the LAN reach the gateway over Wi-Fi.');
  if (w.rssi !== null && w.rssi < -80)
    return check('degraded', value, 'The Wi-Fi signal is weak: move the phone closer to the access point.');
  return check('ok', value);
}

export function telephonyCheck(snap: Snapshot): CheckOf<'telephony'> {
  const t = snap.telephony.value;
  if (!t) {
    const value = { simState: null, carrier: null, networkType: null, roaming: null, simCount: null, readAt: null };
    return check('unknown', value, 'The phone did not report its SIM and network.');
  }
  const value = {
    simState: t.simState,
    carrier: t.carrier,
    networkType: t.networkType,
    roaming: t.roaming,
    simCount: t.simCount,
    readAt: iso(snap.telephony.readAt),
  };
  if (t.simState !== null && t.simState.toLowerCase() !== 'ready') {
    return check('failing', value, `The SIM is not ready (${t.simState}): check that it is inserted and unlocked.`);
  }
  if (t.roaming === true) return check('degraded', value, 'The phone is roaming: SMS may cost more.');
  return check('ok', value);
}
