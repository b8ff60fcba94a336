// GET /devices and /device: the phone as SMSGate's one device, in an array (its app answers
// so), from the facts the gateway keeps (status/smsgate-device.ts): no Termux:API call.
// DELETE /devices/:id (SMSGate's cloud route, its clients' deleteDevice) is 404 in SMSGate's shape,
// as SMSGate's local server answers it: the phone cannot remove itself.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../core/clock.js';
import type { SmsgatePhone } from '../../status/smsgate-device.js';
import { gatewayError } from '../../core/errors.js';
import { json } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';
import { smsgateDeviceId } from './device-id.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { SmsgateDeviceSchema } from './system-schemas.js';

export interface DeviceRouteDeps {
  clock: Clock;
  /** This phone's device id (made once, kept: http/smsgate/device-id.ts). */
  deviceId: () => string;
  phone: () => SmsgatePhone;
}

const iso = (ms: number) => new Date(ms).toISOString();

const EXAMPLE = [
  {
    id: 'Qm3xT0b9cVwR2kLp8sYdA',
    name: 'Google/Pixel 6a',
    createdAt: '2026-10-02T08:15:00.000Z',
    updatedAt: '2026-11-21T12:00:00.000Z',
    lastSeen: '2026-11-21T12:00:00.000Z',
    simCards: [{ slotIndex: 0, simNumber: 1, phoneNumber: '+491511234567', carrierName: 'Telekom', iccid: null }],
  },
];

export function smsgateDevices(deps: DeviceRouteDeps) {
  const phone = deps.phone();
  const now = iso(deps.clock.now());
  const { createdAt, name, simCards } = phone;
  return [{ id: deps.deviceId(), name, createdAt: iso(createdAt), updatedAt: now, lastSeen: now, simCards }];
}

function deviceRoutes(deps: DeviceRouteDeps): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/devices', '/device']) {
      app.get(
        url,
        {
          schema: {
            hide: url === '/device',
            ...SMSGATE_ROUTE,
            operationId: url === '/device' ? 'smsgateGetDevice' : 'smsgateListDevices',
            summary: 'This phone, as the one device (also at /device)',
            description:
              'DELETE /devices/{id} (SMSGate’s cloud route, its clients’ deleteDevice) answers 404 { message }, as ' +
              'SMSGate’s local server does: the phone is the one device and cannot remove itself.',
            response: {
              200: json('An array holding this phone.', z.array(SmsgateDeviceSchema), EXAMPLE),
              ...smsgateErrors({}),
            },
          },
        },
        async () => smsgateDevices(deps),
      );
      app.delete(
        `${url}/:id`,
        {
          schema: {
            // Hidden: an operation with no success answer; GET /devices's description says it.
            hide: true,
            ...SMSGATE_ROUTE,
            operationId: url === '/device' ? 'smsgateRemoveDeviceSingular' : 'smsgateRemoveDevice',
            summary: 'Never removes this phone (404, as SMSGate’s local server answers)',
            description: 'SMSGate removes devices on its cloud server only; here the phone is the one device.',
            params: z.object({ id: z.string().max(200) }),
            response: smsgateErrors({ 404: 'Always: there is no device to remove.' }),
          },
        },
        async () => {
          throw gatewayError('not_found', 'removableDevice');
        },
      );
    }
  };
}

export const routes: RouteFile = (parts) =>
  deviceRoutes({ clock: parts.clock, deviceId: () => smsgateDeviceId(parts), phone: parts.status.smsgatePhone });
