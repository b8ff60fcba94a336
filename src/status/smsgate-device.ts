// The phone as SMSGate's clients see it (GET /, GET /device): its model, a name, when the
// gateway was set up on it, and its SIM cards, from facts the gateway already keeps (the
// probes' last readings: no Termux:API call). Termux:API describes the default subscription
// only, so a SIM's carrier is told when the phone has one slot; the phone number is
// SMS_GATEWAY_PHONE_NUMBER's, on the default slot; the ICCID is never told (null).
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { SIMULATED_SIM_COUNT, type RuntimeInfo } from '../core/runtime.js';
import type { Probes } from '../device/probes.js';

export interface SmsgateSimCard {
  /** 0-based. */
  slotIndex: number;
  /** 1-based, as simNumber of a message. */
  simNumber: number;
  phoneNumber: string | null;
  carrierName: string | null;
  iccid: string | null;
}

export interface SmsgatePhone {
  model: string | null;
  name: string;
  /** Wall-clock ms: when the gateway's database was made on this phone (else when this run started). */
  createdAt: number;
  simCards: SmsgateSimCard[];
}

export interface SmsgatePhoneDeps {
  runtime: RuntimeInfo;
  probes: Pick<Probes, 'known' | 'shown'>;
  home: string;
  phoneNumber: string | undefined;
  defaultSim: number;
}

/** When the database file was made (its birth time where the file system keeps one, else its change time). */
function madeAt(home: string, fallback: number): number {
  try {
    const s = statSync(join(home, 'gateway.db'));
    const at = s.birthtimeMs > 0 ? s.birthtimeMs : s.ctimeMs;
    return at > 0 ? Math.min(Math.trunc(at), fallback) : fallback;
  } catch {
    return fallback;
  }
}

export function createSmsgatePhone(deps: SmsgatePhoneDeps): () => SmsgatePhone {
  let createdAt: number | undefined;
  return () => {
    // The model never changes: the last reading, however old (getprop is read at every start).
    const props = deps.probes.known().props.value;
    const t = deps.probes.shown().telephony.value;
    const simCount = t?.simCount ?? (deps.runtime.mode === 'simulated' ? SIMULATED_SIM_COUNT : 0);
    createdAt ??= madeAt(deps.home, deps.runtime.startedAt);
    const model = props?.model ?? null;
    return {
      model,
      name: [props?.manufacturer, model].filter((p) => p).join('/') || 'sms-gateway',
      createdAt,
      simCards: Array.from({ length: simCount }, (_, i) => ({
        slotIndex: i,
        simNumber: i + 1,
        phoneNumber: i + 1 === deps.defaultSim ? (deps.phoneNumber ?? null) : null,
        carrierName: simCount === 1 ? (t?.simCarrier ?? t?.carrier ?? null) : null,
        iccid: null,
      })),
    };
  };
}
