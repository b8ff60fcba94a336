// DELETE /messages/:id (and /message/:id): cancels an SMSGate message's recipients that have not
// been handed off; 200 with its state. Already cancelled: its state again. Nothing waiting: 400,
// as SMSGate's app refuses to cancel a message that is not Pending.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { json } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { smsgateDeviceId } from './device-id.js';
import { SmsgateMessageParamsSchema, SmsgateMessageStateSchema } from './message-schemas.js';
import { renderMessageState } from './message-state.js';
import { SMSGATE_MESSAGE_EXAMPLE } from './message-example.js';

const CANCELLED_EXAMPLE = {
  ...SMSGATE_MESSAGE_EXAMPLE,
  textMessage: undefined,
  state: 'Cancelled' as const,
  recipients: SMSGATE_MESSAGE_EXAMPLE.recipients.map((r) => ({ ...r, state: 'Cancelled' as const })),
  states: { ...SMSGATE_MESSAGE_EXAMPLE.states, Cancelled: '2026-11-23T06:31:00.000Z' },
};

function cancelRoutes(parts: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/messages/:id', '/message/:id']) {
      app.delete(
        url,
        {
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/message/:id',
            operationId: url === '/messages/:id' ? 'smsgateCancelMessage' : 'smsgateCancelMessageSingular',
            summary: 'Cancel an SMSGate message',
            description:
              'Every recipient not yet handed off becomes Cancelled and is never sent; those already handed off ' +
              'go on. Also at /message/:id.',
            params: SmsgateMessageParamsSchema,
            response: {
              200: json('Cancelled (or already cancelled): its state.', SmsgateMessageStateSchema, CANCELLED_EXAMPLE),
              ...smsgateErrors({
                400: 'Nothing waits to be cancelled (all handed off, sent or failed), or the id is too long.',
                404: 'No message with this id (or gone from the history).',
                503: 'The database cannot be written; nothing changed.',
              }),
            },
          },
        },
        async (request) => {
          const message = parts.sending.smsgate.messages.cancel(request.params.id);
          return renderMessageState(message, smsgateDeviceId(parts), false);
        },
      );
    }
  };
}

export const routes: RouteFile = (parts) => cancelRoutes(parts);
