// The opt-out list over the API (docs/receiving.md, opt-out): GET /api/opt-outs (newest
// change first, paged like the history), POST /api/opt-outs {number} (201; 200 with the
// entry when the number is listed already), DELETE /api/opt-outs/:number (204; 404 when it
// is not listed). Numbers are normalized like a recipient, and the same digits with or
// without a leading + are one number (sms/opt-out-list.ts). The list is honoured whatever
// SMS_GATEWAY_OPT_OUT says; that setting only decides whether received keywords change it.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import * as z from 'zod';
import { gatewayError } from '../../core/errors.js';
import { optOutNumber, type OptOutList } from '../../sms/opt-out-list.js';
import type { OptOutRow } from '../../store/opt-outs.js';
import { bearerErrors, json, noContent, STORAGE_503 } from '../route-docs.js';
import { PaginationSchema } from '../schemas.js';
import { queryInt } from '../query-schemas.js';
import { BODY_LIMIT } from '../errors.js';
import type { RouteFile } from '../route-parts.js';

const NUMBER_RULE =
  'a phone number: an optional leading + and 3 to 15 digits (spaces, dashes, dots and parentheses are removed)';

const OptOutSchema = z
  .object({
    number: z.string().describe('normalized like a recipient: + and digits'),
    optedOut: z.literal(true),
    at: z.string().describe('ISO 8601 UTC: when it was put on the list'),
    by: z
      .enum(['sms', 'api', 'mqtt'])
      .describe('sms: it texted a keyword; api: this API; mqtt: another gateway of the same MQTT prefix'),
  })
  .meta({ id: 'OptOut' });
const OptOutPageSchema = z.object({
  success: z.literal(true),
  data: z.array(OptOutSchema).describe('newest first'),
  pagination: PaginationSchema,
});
const OptOutResponseSchema = z.object({ success: z.literal(true), data: OptOutSchema });
const OptOutQuerySchema = z
  .object({
    limit: queryInt(1, 100, 20).describe('1 to 100, default 20'),
    offset: queryInt(0, Number.MAX_SAFE_INTEGER, 0).describe('0 or more, default 0'),
  })
  .strict();
const OptOutRequestSchema = z
  .object({ number: z.string().max(64, 'must be at most 64 characters').describe(NUMBER_RULE) })
  .strict();
const OptOutParamsSchema = z.object({
  number: z.string().max(64, 'must be at most 64 characters').describe(NUMBER_RULE),
});

const example = {
  number: '+4915112345678',
  optedOut: true as const,
  at: '2026-11-21T12:00:05.000Z',
  by: 'sms' as const,
};

export interface OptOutRoutesDeps {
  list: Pick<OptOutList, 'add' | 'remove' | 'listing' | 'list'>;
  logger?: Logger | undefined;
}

const entry = (r: OptOutRow) => ({
  number: r.number,
  optedOut: true as const,
  at: new Date(r.at).toISOString(),
  by: r.by as 'sms' | 'api' | 'mqtt',
});

/** GET /api/opt-outs: the numbers on the list, newest change first, paged like the history. */
function optOutListRoute(deps: OptOutRoutesDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/opt-outs',
      {
        schema: {
          operationId: 'listOptOuts',
          summary: 'The opt-out list, newest first',
          description:
            'Numbers no message is handed off to (they texted STOP, or were added here). Kept across restarts, ' +
            'never pruned.',
          tags: ['sms'],
          querystring: OptOutQuerySchema,
          response: {
            200: json('One page of the list, newest first.', OptOutPageSchema, {
              success: true,
              data: [example],
              pagination: { limit: 20, offset: 0, total: 1, hasNext: false },
            }),
            ...bearerErrors([400], { 400: 'invalid_request: a bad or unknown query parameter.' }),
          },
        },
      },
      async (request) => {
        const { limit, offset } = request.query;
        const { rows, total } = deps.list.list({ limit, offset });
        return {
          success: true as const,
          data: rows.map(entry),
          pagination: { limit, offset, total, hasNext: offset + rows.length < total },
        };
      },
    );
  };
}

export function optOutRoutes(deps: OptOutRoutesDeps, bodyLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    await app.register(optOutListRoute(deps));

    app.post(
      '/api/opt-outs',
      {
        bodyLimit,
        schema: {
          operationId: 'addOptOut',
          summary: 'Put a number on the opt-out list',
          description:
            'From now on nothing is handed off to it: POST /api/sms/send answers 409 recipient_opted_out, POST ' +
            '/api/messages records it as failed (opted_out), and its queued messages fail at their turn.',
          tags: ['sms'],
          body: OptOutRequestSchema,
          response: {
            200: json('The number was on the list already: its entry.', OptOutResponseSchema, {
              success: true,
              data: example,
            }),
            201: json('Put on the list.', OptOutResponseSchema, { success: true, data: { ...example, by: 'api' } }),
            ...bearerErrors(
              [400, 413, 415, 503],
              { 400: `invalid_request: the number is missing or not ${NUMBER_RULE}.`, 503: STORAGE_503 },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request, reply) => {
        const number = optOutNumber(request.body.number);
        const added = deps.list.add(number, 'api');
        if (added) return reply.code(201).send({ success: true as const, data: entry(added) });
        // listed already (maybe written with or without +): add() changed nothing
        const current = deps.list.listing(number)!;
        return reply.code(200).send({ success: true as const, data: entry(current) });
      },
    );

    app.delete(
      '/api/opt-outs/:number',
      {
        schema: {
          operationId: 'removeOptOut',
          summary: 'Take a number off the opt-out list',
          description: 'Messages to it are handed off again (those that failed as opted_out stay failed).',
          tags: ['sms'],
          params: OptOutParamsSchema,
          response: {
            204: noContent('Taken off; no body.'),
            ...bearerErrors(
              [400, 404, 503],
              {
                400: `invalid_request: the number is not ${NUMBER_RULE}.`,
                404: 'not_found: the number is not on the list.',
                503: STORAGE_503,
              },
              { noRetryAfter503: true },
            ),
          },
        },
      },
      async (request, reply) => {
        const number = optOutNumber(request.params.number, 'params.number');
        if (!deps.list.remove(number, 'api')) throw gatewayError('not_found', 'optOut', number);
        deps.logger?.info('a number was taken off the opt-out list over the API');
        return reply.code(204).send(null);
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending, logger }) => optOutRoutes({ list: sending.optOuts, logger }, BODY_LIMIT);
