// GET /api/host/info and GET /api/diagnostics: the phone and the gateway, from cached
// device probes (a hanging Termux:API never holds a request beyond the first round).
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HostInfo } from '../../status/host-info.js';
import type { Diagnostics } from '../../status/diagnostics.js';
import { COMMON_ERRORS, DiagnosticsSchema, HostInfoSchema } from '../schemas.js';

export interface DeviceRoutesDeps {
  hostInfo: () => Promise<HostInfo>;
  diagnostics: () => Promise<Diagnostics>;
}

export function deviceRoutes(deps: DeviceRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/host/info',
      {
        schema: {
          summary: 'Phone number, carrier, SIMs, device, counters, gateway',
          tags: ['phone'],
          response: { 200: z.object({ success: z.literal(true), data: HostInfoSchema }), ...COMMON_ERRORS },
        },
      },
      async () => ({ success: true as const, data: await deps.hostInfo() }),
    );
    app.get(
      '/api/diagnostics',
      {
        schema: {
          summary: 'Health snapshot for a headless gateway',
          tags: ['phone'],
          response: { 200: z.object({ success: z.literal(true), data: DiagnosticsSchema }), ...COMMON_ERRORS },
        },
      },
      async () => ({ success: true as const, data: await deps.diagnostics() }),
    );
  };
}
