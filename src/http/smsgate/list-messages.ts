// GET /messages: SMSGate's list of the messages sent through its routes, newest first, filtered
// by state and acceptance time (from, to: default now), a page of limit from offset, with
// X-Total-Count (how many match in all). The text only with includeContent=true.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { gatewayError } from '../../core/errors.js';
import { json } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { smsgateDeviceId } from './device-id.js';
import { SmsgateListQuerySchema, SmsgateMessageStateSchema } from './message-schemas.js';
import { renderMessageState } from './message-state.js';
import { SMSGATE_MESSAGE_EXAMPLE } from './message-example.js';

const TOTAL = {
  'X-Total-Count': { type: 'integer', minimum: 0, description: 'How many messages match in all' },
} as const;

function listRoutes(parts: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/messages',
      {
        schema: {
          ...SMSGATE_ROUTE,
          operationId: 'smsgateListMessages',
          summary: 'List SMSGate messages',
          description:
            'The messages sent through these routes that the history still holds, newest first, with X-Total-Count.',
          querystring: SmsgateListQuerySchema,
          response: {
            200: json(
              'A page of message states.',
              z.array(SmsgateMessageStateSchema),
              [SMSGATE_MESSAGE_EXAMPLE],
              TOTAL,
            ),
            ...smsgateErrors({ 400: 'A parameter is invalid, from is after to, or another device id.' }),
          },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const deviceId = smsgateDeviceId(parts);
        if (q.deviceId !== undefined && q.deviceId !== deviceId) {
          throw gatewayError('invalid_request', 'problem', `invalid device id: this phone is ${deviceId}.`);
        }
        const from = q.from === undefined ? 0 : Date.parse(q.from);
        const to = q.to === undefined ? parts.clock.now() : Date.parse(q.to);
        if (from > to) throw gatewayError('invalid_request', 'problem', 'from (start date) cannot be after to.');
        // Cancelling and Delivered never happen here: asked for, they match nothing.
        if (q.state === 'Cancelling' || q.state === 'Delivered') {
          void reply.header('x-total-count', '0');
          return [];
        }
        const { messages, total } = parts.sending.smsgate.messages.list({
          state: q.state,
          from,
          to,
          limit: q.limit,
          offset: q.offset,
        });
        const includeContent = q.includeContent === 'true';
        void reply.header('x-total-count', String(total));
        return messages.map((m) => renderMessageState(m, deviceId, includeContent));
      },
    );
  };
}

export const routes: RouteFile = (parts) => listRoutes(parts);
