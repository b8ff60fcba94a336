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
