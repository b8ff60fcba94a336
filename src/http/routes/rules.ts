// The keyword rules over the API (docs/receiving.md, keyword rules): GET /api/rules (every rule,
// oldest first: the order matching tries them in), POST /api/rules (201; 409 too_many_rules
// when 50 exist), DELETE /api/rules/:id (204; 404 when unknown). A received SMS that
// triggers a rule carries its keyword and gets its reply through the queue (sms/rule-replies.ts).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import * as z from 'zod';
import { gatewayError } from '../../core/errors.js';
import { MAX_RULES, type Rules } from '../../sms/rules.js';
import type { RuleRow } from '../../store/rules.js';
import { bearerErrors, json, noContent, STORAGE_503 } from '../route-docs.js';
import { prefixedId } from '../schemas.js';
import { BODY_LIMIT } from '../errors.js';
import type { RouteFile } from '../route-parts.js';

const FROM_RULE =
  'phone numbers: an optional leading + and 3 to 15 digits (spaces, dashes, dots and parentheses are removed)';

const RuleSchema = z
  .object({
    id: z.string().describe('rule_...'),
    keyword: z.string().describe('1 to 20 ASCII letters or digits, as given; matched in any case'),
    match: z
      .enum(['exact', 'prefix'])
      .describe(
        'exact: the whole text is the keyword; prefix: the text begins with it, then its end, a space or punctuation',
      ),
    reply: z.string().describe('the reply queued to the sender; empty: an event-only rule (nothing is sent)'),
    from: z.array(z.string()).nullable().describe('the only numbers (normalized) that trigger it; null: anyone'),
    createdAt: z.string().describe('ISO 8601 UTC'),
  })
  .meta({ id: 'Rule' });
const RuleListSchema = z.object({
  success: z.literal(true),
  data: z.array(RuleSchema).describe('oldest first: when several match, the oldest wins'),
});
const RuleResponseSchema = z.object({ success: z.literal(true), data: RuleSchema });
const RuleRequestSchema = z
  .object({
    keyword: z
      .string()
      .regex(/^[A-Za-z0-9]{1,20}$/, 'must be 1 to 20 letters or digits (A-Z, a-z, 0-9)')
      .describe('1 to 20 ASCII letters or digits'),
    match: z.enum(['exact', 'prefix']).default('exact').describe('default exact'),
    reply: z
      .string()
      .max(480, 'must be at most 480 characters')
      .describe('0 to 480 characters; empty: an event-only rule'),
    from: z
      .array(z.string().max(64, 'must be at most 64 characters'))
      .min(1, 'must name at least one number (leave it out for anyone)')
      .max(100, 'must name at most 100 numbers')
      .optional()
      .describe(`${FROM_RULE}; left out: anyone`),
  })
  .strict();
const RuleParamsSchema = z.object({
  id: prefixedId('rule_').max(64, 'must be at most 64 characters').describe('rule_...'),
});

const example = {
  id: 'rule_01jd0x4ps8m2k7c9qv3h5t6w8y',
  keyword: 'STATUS',
  match: 'prefix' as const,
  reply: 'All fine at home.',
  from: null,
  createdAt: '2026-11-21T12:00:05.000Z',
};

export interface RuleRoutesDeps {
  rules: Pick<Rules, 'list' | 'add' | 'remove'>;
  logger?: Logger | undefined;
}

const entry = (r: RuleRow) => ({
  id: r.id,
  keyword: r.keyword,
  match: r.match,
  reply: r.reply,
  from: r.from,
  createdAt: new Date(r.createdAt).toISOString(),
});

// The three routes' OpenAPI documentation (and their body and params validation).
const LIST_RULES_DOC = {
  operationId: 'listRules',
  summary: 'The keyword rules, oldest first',
  description: `At most ${MAX_RULES}. A received SMS that triggers one carries its keyword and gets its reply, queued.`,
  tags: ['sms'],
  response: {
    200: json('Every rule, oldest first.', RuleListSchema, { success: true, data: [example] }),
    ...bearerErrors([]),
  },
};

const ADD_RULE_DOC = {
  operationId: 'addRule',
  summary: 'Add a keyword rule',
  description:
    'From now on a received SMS that matches it (any case, surrounding spaces ignored; opt-out keywords ' +
    'win) carries its keyword, and its sender gets the reply through the queue, within the limits of ' +
    'automatic replies (dialable numbers only, one per sender per 10 minutes, 30 an hour in all).',
  tags: ['sms'],
  body: RuleRequestSchema,
  response: {
    201: json('Added.', RuleResponseSchema, { success: true, data: example }),
    ...bearerErrors(
      [400, 409, 413, 415, 503],
      {
        400: `invalid_request: a field is missing or invalid (keyword, match, reply, from: ${FROM_RULE}).`,
        409: `too_many_rules: ${MAX_RULES} rules exist already; remove one first.`,
        503: STORAGE_503,
      },
      { noRetryAfter503: true },
    ),
  },
};

const REMOVE_RULE_DOC = {
  operationId: 'removeRule',
  summary: 'Remove a keyword rule',
  description: 'Received SMS no longer trigger it (those stored before keep their keyword).',
  tags: ['sms'],
  params: RuleParamsSchema,
  response: {
    204: noContent('Removed; no body.'),
    ...bearerErrors(
      [400, 404, 503],
      {
        400: 'invalid_request: the id does not start with rule_, or is too long.',
        404: 'not_found: no rule has this id.',
        503: STORAGE_503,
      },
      { noRetryAfter503: true },
    ),
  },
};

export function ruleRoutes(deps: RuleRoutesDeps, bodyLimit: number): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/rules', { schema: LIST_RULES_DOC }, async () => ({
      success: true as const,
      data: deps.rules.list().map(entry),
    }));

    app.post('/api/rules', { bodyLimit, schema: ADD_RULE_DOC }, async (request, reply) => {
      const { keyword, match, reply: text, from } = request.body;
      const rule = deps.rules.add({ keyword, match, reply: text, from });
      return reply.code(201).send({ success: true as const, data: entry(rule) });
    });

    app.delete('/api/rules/:id', { schema: REMOVE_RULE_DOC }, async (request, reply) => {
      const { id } = request.params;
      if (!deps.rules.remove(id)) throw gatewayError('not_found', 'rule', id);
      deps.logger?.info({ id }, 'a keyword rule was removed');
      return reply.code(204).send(null);
    });
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending, logger }) => ruleRoutes({ rules: sending.rules, logger }, BODY_LIMIT);
