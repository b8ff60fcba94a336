// Where the gateway keeps its data: $SMS_GATEWAY_HOME, else ~/.sms-gateway. Imports
// nothing but Node, so the process entry can use it before anything else loads.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function resolveHome(env: NodeJS.ProcessEnv): string {
  const raw = env.SMS_GATEWAY_HOME?.trim();
  return raw ? resolve(raw) : join(homedir(), '.sms-gateway');
}
