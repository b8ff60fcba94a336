// Host info: the phone's number, carrier, SIMs and device, the send counters, and the
// gateway itself. Every value the phone cannot tell is null, never invented (simulated
// mode's two SIM slots are the gateway's own, not the phone's). The SIM and carrier facts
// shown are at most 30 minutes old (device/probes.ts reads them again when older).
import { networkInterfaces } from 'node:os';
import type { Clock } from '../core/clock.js';
import type { Probes } from '../device/probes.js';
import { addressesFromInterfaces, baseUrl } from '../device/lan.js';
import { isLocalAddress } from '../core/addresses.js';
import { SIMULATED_SIM_COUNT, type RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { StatsStore } from '../store/stats.js';
import type { MessageStore } from '../store/messages.js';

export interface HostInfoDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  calendar: () => Calendar;
  stats: StatsStore;
  messages: Pick<MessageStore, 'count'>;
  probes: Pick<Probes, 'get' | 'peek'>;
  phoneNumber: string | undefined;
  defaultSim: number;
  interfaces?: typeof networkInterfaces;
}

/** LAN addresses without waiting: interfaces if Android lets us read them, else the Wi-Fi probe's. */
export function knownLanUrls(
  probes: Pick<Probes, 'peek'>,
  interfaces: typeof networkInterfaces = networkInterfaces,
): string[] {
  try {
    const found = addressesFromInterfaces(interfaces());
    if (found.length > 0) return found.map(baseUrl);
  } catch {
    // Android 13+
  }
  const ip = probes.peek(['wifi']).wifi.value?.ip;
  return ip && isLocalAddress(ip) ? [baseUrl(ip)] : [];
}

export function createHostInfo(deps: HostInfoDeps) {
  return async function hostInfo() {
    // The SIM, carrier and device; the Wi-Fi only if the interfaces hide the LAN address.
    const snap = await deps.probes.get(['telephony', 'props']);
    const t = snap.telephony.value;
    const p = snap.props.value;
    const now = deps.clock.now();
    const cal = deps.calendar();
    const date = cal.dayOf(now);
    const month = cal.monthOf(now);
    // Simulated mode with no phone to ask offers slots 1 and 2 (as the sender accepts them).
    const simCount = t?.simCount ?? (deps.runtime.mode === 'simulated' ? SIMULATED_SIM_COUNT : null);
    const sims =
      simCount === null
        ? []
        : Array.from({ length: simCount }, (_, i) => ({
            slot: i + 1,
            // Termux:API describes the default subscription only: with one slot that is it.
            carrier: simCount === 1 ? (t?.simCarrier ?? null) : null,
            state: simCount === 1 ? (t?.simState ?? null) : null,
          }));
    return {
      phoneNumber: deps.phoneNumber ?? null,
      carrier: t?.carrier ?? null,
      networkType: t?.networkType ?? null,
      simState: t?.simState ?? null,
      roaming: t?.roaming ?? null,
      simCount,
      sims,
      defaultSimSlot: deps.defaultSim,
      device: {
        manufacturer: p?.manufacturer ?? null,
        model: p?.model ?? null,
        androidVersion: p?.androidVersion ?? null,
      },
      counters: {
        timeZone: cal.timeZone,
        today: { date, ...deps.stats.day(date) },
        month: { month, ...deps.stats.month(month) },
        allTime: deps.stats.allTime(),
        historySize: deps.messages.count(),
      },
      gateway: {
        version: deps.runtime.version,
        mode: deps.runtime.mode,
        simulation: deps.runtime.simulation,
        smsEnabled: deps.runtime.smsEnabled,
        startedAt: new Date(deps.runtime.startedAt).toISOString(),
        uptimeSeconds: Math.round((now - deps.runtime.startedAt) / 1000),
        lanUrls: knownLanUrls(deps.probes, deps.interfaces),
      },
    };
  };
}

export type HostInfo = Awaited<ReturnType<ReturnType<typeof createHostInfo>>>;
