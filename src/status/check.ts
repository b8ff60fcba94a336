// One diagnostics check: a status, the facts behind it, and a hint saying what to do when
// it is not ok. Shared by the diagnostics snapshot and the checks kept in their own files.
export type CheckStatus = 'ok' | 'degraded' | 'failing' | 'unknown';

export interface Check {
  status: CheckStatus;
  value: Record<string, unknown>;
  hint?: string;
}

export const check = (status: CheckStatus, value: Record<string, unknown>, hint?: string): Check =>
  hint === undefined ? { status, value } : { status, value, hint };
