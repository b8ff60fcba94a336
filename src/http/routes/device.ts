// GET /api/host/info and GET /api/diagnostics: the phone and the gateway, from cached
// device probes (a hanging Termux:API never holds a request beyond the first round).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { HostInfo } from '../../status/host-info.js';
import type { Diagnostics } from '../../status/diagnostics.js';
import { DiagnosticsResponseSchema, HostInfoResponseSchema } from '../schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { diagnosticsExample, hostInfoExample } from '../examples.js';
import type { RouteFile } from '../route-parts.js';

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
          operationId: 'getHostInfo',
          summary: 'Phone number, carrier, SIMs, device, counters, gateway',
          tags: ['phone'],
          response: {
            200: json(
              'What the phone tells (null where it cannot) and the gateway.',
              HostInfoResponseSchema,
              hostInfoExample,
            ),
            ...bearerErrors([]),
          },
        },
      },
      async () => ({ success: true as const, data: await deps.hostInfo() }),
    );
    app.get(
      '/api/diagnostics',
      {
        schema: {
          operationId: 'getDiagnostics',
          summary: 'Health snapshot for a headless gateway',
          tags: ['phone'],
          response: {
            200: json('The overall status and every check.', DiagnosticsResponseSchema, diagnosticsExample),
            ...bearerErrors([]),
          },
        },
      },
      async () => ({ success: true as const, data: await deps.diagnostics() }),
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ status }) => deviceRoutes(status);
