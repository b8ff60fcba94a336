// GET /api/messages (newest first, paginated, status filter) and GET /api/messages/:id.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gatewayError } from '../../core/errors.js';
import { toMessageRecord, type MessageStore } from '../../store/messages.js';
import { MessageParamsSchema, MessageResponseSchema, MessagesPageSchema, MessagesQuerySchema } from '../schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { listExample, messageExample } from '../examples.js';

export function messageRoutes(store: MessageStore): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/messages',
      {
        schema: {
          operationId: 'listMessages',
          summary: 'Send history, newest first',
          tags: ['sms'],
          querystring: MessagesQuerySchema,
          response: {
            200: json('One page of the history, newest first.', MessagesPageSchema, listExample),
            ...bearerErrors([400], { 400: 'invalid_request: a bad or unknown query parameter.' }),
          },
        },
      },
      async (request) => {
        const { limit, offset, status } = request.query;
        const { rows, total } = store.list({ limit, offset, status });
        return {
          success: true as const,
          data: rows.map(toMessageRecord),
          pagination: { limit, offset, total, hasNext: offset + rows.length < total },
        };
      },
    );

    app.get(
      '/api/messages/:id',
      {
        schema: {
          operationId: 'getMessage',
          summary: "One message's status",
          tags: ['sms'],
          params: MessageParamsSchema,
          response: {
            200: json('The message record.', MessageResponseSchema, messageExample),
            ...bearerErrors([400, 404], { 400: 'invalid_request: the id does not start with msg_.' }),
          },
        },
      },
      async (request) => {
        const { id } = request.params;
        const row = store.get(id);
        if (!row) throw gatewayError('not_found', 'message', id);
        return { success: true as const, data: toMessageRecord(row) };
      },
    );
  };
}
