// GET /api/messages (newest first, paginated, status filter, search by number or text and a
// time range) and GET /api/messages/:id.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { gatewayError } from '../../core/errors.js';
import { toMessageRecord, type MessageStore } from '../../store/messages.js';
import { MessageParamsSchema, MessageResponseSchema, MessagesPageSchema } from '../schemas.js';
import { MessagesQuerySchema, searchTimes, tagFilter } from '../query-schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { listExample, messageExample } from '../examples.js';
import type { RouteFile } from '../route-parts.js';

const LIST_DESCRIPTION =
  'Filtered by status and a tag (tag=key:value), searched (q: a number or a text; since and until: ' +
  'the creation time); the total and hasNext count the filtered messages, so offset pages through them.';
const LIST_BAD_QUERY =
  'invalid_request: a bad or unknown query parameter (q too long, since or until not a date-time, ' +
  'until before since, tag not key:value); the message names it.';

export function messageRoutes(store: MessageStore): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/messages',
      {
        schema: {
          operationId: 'listMessages',
          summary: 'Send history, newest first',
          description: LIST_DESCRIPTION,
          tags: ['sms'],
          querystring: MessagesQuerySchema,
          response: {
            200: json('One page of the history, newest first.', MessagesPageSchema, listExample),
            ...bearerErrors([400], {
              400: LIST_BAD_QUERY,
            }),
          },
        },
      },
      async (request) => {
        const { limit, offset, status, q, tag } = request.query;
        const filter = { status, q, tag: tagFilter(tag), ...searchTimes(request.query) };
        const { rows, total } = store.list({ limit, offset, ...filter });
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

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending }) => messageRoutes(sending.messages);
