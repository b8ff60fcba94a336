// Device probes through the termux runner. Each is bounded by its own timeout and
// answers undefined when the phone cannot tell: never an invented value.
import { runCommand } from './termux.js';

/** SIM slots the phone reports (termux-telephony-deviceinfo's phone_count). */
export async function probeSimCount(env?: NodeJS.ProcessEnv): Promise<number | undefined> {
  const r = await runCommand('termux-telephony-deviceinfo', [], { timeoutMs: 5000, expect: 'json', ...(env ? { env } : {}) });
  if (!r.ok) return undefined;
  const n = (r.json as { phone_count?: unknown }).phone_count;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= 8 ? n : undefined;
}
