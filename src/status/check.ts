// One diagnostics check: a status, the facts behind it, and a hint saying what to do when
// it is not ok. Shared by the diagnostics snapshot and the checks kept in their own files;
// each check's facts are typed by its schema in checks-schema.ts.
import { CHECK_STATUSES, type Checks } from './checks-schema.js';

export type CheckStatus = (typeof CHECK_STATUSES)[number];

export interface Check<V = Record<string, unknown>> {
  status: CheckStatus;
  value: V;
  hint?: string;
}

/** The check named `N`, as its schema types it. */
export type CheckOf<N extends keyof Checks> = Checks[N];

export const check = <V>(status: CheckStatus, value: V, hint?: string): Check<V> =>
  hint === undefined ? { status, value } : { status, value, hint };

/**
 * The names of the checks that need attention (degraded or failing), in the diagnostics'
 * order: what `sms-gateway status` and the MQTT state topic both list. `unknown` (the
 * phone did not tell, as in simulated mode) is no problem, as it does not lower the status.
 */
export function needsAttention(checks: Record<string, { status: string }>): string[] {
  return Object.entries(checks)
    .filter(([, c]) => c.status === 'degraded' || c.status === 'failing')
    .map(([name]) => name);
}
