// This phone's device id in SMSGate's routes (message states, GET /device): one id, made once
// and kept in the database (sms/smsgate-device-id.ts), the same in every answer.
import type { RouteParts } from '../route-parts.js';

/** The device id every SMSGate route shows for this phone. */
export function smsgateDeviceId(parts: Pick<RouteParts, 'sending'>): string {
  return parts.sending.smsgate.deviceId();
}
