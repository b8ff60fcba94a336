// The phone's device id in SMSGate's routes (a message state's deviceId, GET /device): 21
// URL-safe characters like SMSGate's own, derived from the gateway's home folder, so it
// stays the same across restarts and upgrades and tells nothing of the key.
import { createHash } from 'node:crypto';

/** The stable device id of the gateway living in `home`. */
export function smsgateDeviceId(home: string): string {
  return createHash('sha256').update(`sms-gateway device ${home}`).digest('base64url').slice(0, 21);
}
