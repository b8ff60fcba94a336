// SMSGate's health object ({ status: pass|warn|fail, version, releaseId, checks }) from facts the
// gateway already keeps: no Termux:API call of its own (the battery is the probes' last reading,
// the messages are today's counts). One builder for both users: the system:ping webhook's payload
// and GET /health's SMSGate form. Checks as SMSGate's app names them: messages:failed,
// battery:level, battery:charging; the overall status is the worst check's.
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { Probes } from '../device/probes.js';
import type { Counts } from '../store/stats.js';

export type SmsgateHealthStatus = 'pass' | 'warn' | 'fail';

export interface SmsgateCheck {
  status: SmsgateHealthStatus;
  observedValue: number;
  observedUnit: string;
  description: string;
}

export interface SmsgateHealth {
  status: SmsgateHealthStatus;
  version: string;
  releaseId: number;
  checks: Record<string, SmsgateCheck>;
}

export interface SmsgateHealthFacts {
  version: string;
  /** Today's counts (the phone's calendar day). */
  today: Pick<Counts, 'sent' | 'failed'>;
  /** The battery's last reading, null when none is fresh. */
  battery: { level: number | null; charging: boolean | null } | null;
}

const RANK: Record<SmsgateHealthStatus, number> = { pass: 0, warn: 1, fail: 2 };

/** A release number from the version (1.2.3 -> 10203), as SMSGate's releaseId is a build number. */
export const releaseIdOf = (version: string): number => {
  const [a = 0, b = 0, c = 0] = version.split(/[.-]/).map((p) => Number.parseInt(p, 10) || 0);
  return a * 10_000 + b * 100 + c;
};

export function smsgateHealth(f: SmsgateHealthFacts): SmsgateHealth {
  const { failed, sent } = f.today;
  const checks: Record<string, SmsgateCheck> = {
    'messages:failed': {
      status: failed > 0 && sent === 0 ? 'fail' : failed > 0 ? 'warn' : 'pass',
      observedValue: failed,
      observedUnit: 'messages',
      description: 'Failed messages today',
    },
  };
  const level = f.battery?.level ?? null;
  if (level !== null) {
    checks['battery:level'] = {
      status: level < 10 ? 'fail' : level < 25 ? 'warn' : 'pass',
      observedValue: Math.round(level),
      observedUnit: 'percent',
      description: 'Battery level in percent',
    };
  }
  if (f.battery?.charging != null) {
    checks['battery:charging'] = {
      status: 'pass',
      observedValue: f.battery.charging ? 1 : 0,
      observedUnit: 'flags',
      description: 'Is the phone charging?',
    };
  }
  const worst = Object.values(checks).reduce<SmsgateHealthStatus>(
    (w, c) => (RANK[c.status] > RANK[w] ? c.status : w),
    'pass',
  );
  return { status: worst, version: f.version, releaseId: releaseIdOf(f.version), checks };
}

export interface SmsgateHealthDeps {
  clock: Clock;
  runtime: Pick<RuntimeInfo, 'version'>;
  calendar: () => Calendar;
  stats: { day(day: string): Counts };
  probes: Pick<Probes, 'shown'>;
}

/** The builder over the gateway's facts: read when a ping is stored or GET /health asks. */
export function createSmsgateHealth(deps: SmsgateHealthDeps): () => SmsgateHealth {
  return () =>
    smsgateHealth({
      version: deps.runtime.version,
      today: deps.stats.day(deps.calendar().dayOf(deps.clock.now())),
      battery: deps.probes.shown().battery.value,
    });
}
