// GET /messages/:id (and /message/:id): an SMSGate message's state, with its text.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { json } from '../route-docs.js';
import type { RouteFile, RouteParts } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { smsgateDeviceId } from './device-id.js';
import { SmsgateMessageParamsSchema, SmsgateMessageStateSchema } from './message-schemas.js';
import { renderMessageState } from './message-state.js';
import { SMSGATE_MESSAGE_EXAMPLE } from './message-example.js';

function getRoutes(parts: RouteParts): FastifyPluginAsyncZod {
  return async (app) => {
    for (const url of ['/messages/:id', '/message/:id']) {
      app.get(
        url,
        {
          schema: {
            ...SMSGATE_ROUTE,
            hide: url === '/message/:id',
            operationId: url === '/messages/:id' ? 'smsgateGetMessage' : 'smsgateGetMessageSingular',
            summary: "An SMSGate message's state",
            description: 'Its state, each recipient, when each state was reached, and the text. Also at /message/:id.',
            params: SmsgateMessageParamsSchema,
            response: {
              200: json('The message state.', SmsgateMessageStateSchema, SMSGATE_MESSAGE_EXAMPLE),
              ...smsgateErrors({
                400: 'The id is too long.',
                404: 'No message with this id (or gone from the history).',
              }),
            },
          },
        },
        async (request) => {
          const message = parts.sending.smsgate.messages.get(request.params.id);
          return renderMessageState(message, smsgateDeviceId(parts), true);
        },
      );
    }
  };
}

export const routes: RouteFile = (parts) => getRoutes(parts);
