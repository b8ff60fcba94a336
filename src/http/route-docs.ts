// A route's answers as the OpenAPI document shows them, one line each: `json()` for a
// success (description, body schema, example), `bearerErrors()` for every error a route
// behind the key can give, `PUBLIC_ERRORS` for /health. The zod schemas stay what Fastify
// validates and serializes with; http/openapi-document.ts carries the headers and examples
// into the document.
import * as z from 'zod';
import { largerThan } from '../core/error-messages.js';
import type { ErrorStatus } from './error-status.js';
import { BODY_LIMIT } from './errors.js';
import { ErrorBodySchema, GuardBodySchema } from './schemas.js';

declare module 'fastify' {
  interface FastifySchema {
    /** Request headers the route reads itself: documented, never validated by Fastify. */
    documentedHeaders?: z.ZodType;
    /**
     * The body schema is optional (no body is fine): the document says `required: false` (http/openapi-document.ts).
     */
    'x-optional-body'?: true;
  }
}

/**
 * An answer without a body (204): `type: 'null'` makes @fastify/swagger document no content,
 * so a validating proxy accepts the empty answer (zod's 3.0 output alone is a nullable string).
 */
/**
 * The content type of every JSON answer, as Fastify's serializer sets it (for a route that sends text it made itself).
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The 503 of a route that writes (http/errors.ts maps every refused write to it). */
export const STORAGE_503 =
  'storage_unavailable: the database cannot be written (disk full, read-only, or deleted); nothing changed.';

export const noContent = (description: string) => z.null().meta({ type: 'null', description });

/** A response header as the document shows it (a JSON schema with a description). */
export interface HeaderDoc {
  type: 'integer' | 'string';
  minimum?: number;
  description: string;
}

export interface JsonAnswer<T extends z.ZodType> {
  description: string;
  content: { 'application/json': { schema: T; example?: z.input<T> } };
  headers?: Record<string, HeaderDoc>;
}

/** One JSON answer: what it means, its body, and an example the document shows. */
export function json<T extends z.ZodType>(
  description: string,
  schema: T,
  example?: z.input<T>,
  headers?: Record<string, HeaderDoc>,
): JsonAnswer<T> {
  return {
    description,
    content: { 'application/json': example === undefined ? { schema } : { schema, example } },
    ...(headers ? { headers } : {}),
  };
}

export const RETRY_AFTER: Record<string, HeaderDoc> = {
  'Retry-After': {
    type: 'integer',
    minimum: 1,
    description: 'Whole seconds until a retry may succeed (the same as retryAfterSeconds).',
  },
};

/**
 * Statuses a route answers for itself (the guards' 401, 403, 429 and the 500 come with every
 * route): the error codes' statuses (http/error-status.ts). A description that names a code
 * is checked against that table (test/http/error-status.test.ts).
 */
export type RouteErrorStatus = Exclude<ErrorStatus, 429 | 500>;

const DEFAULTS: Record<RouteErrorStatus | 429 | 500, string> = {
  400: 'invalid_request: a bad or unknown field, parameter or header; the message names it.',
  404:
    'not_found: no such message in the history (it keeps the 1000 most recently settled messages and every ' +
    'waiting one).',
  409: 'not_cancellable: the message was already handed off, settled or cancelled.',
  413: `payload_too_large: the body is ${largerThan(BODY_LIMIT)}.`,
  415: 'unsupported_media_type: send the body as JSON with Content-Type: application/json.',
  429: 'rate_limited: more than about 10 requests per second from this address; wait Retry-After seconds.',
  500: 'internal_error: a bug; the gateway logged the details (the answer never carries them).',
  502: 'send_failed: the hand-off to the phone failed; the message says why, messageId names the failed record.',
  503:
    'sms_disabled (SMS_GATEWAY_SMS_ENABLED=false) or storage_unavailable (the database cannot be written): ' +
    'nothing recorded or sent.',
};

type ErrorAnswer = JsonAnswer<typeof ErrorBodySchema>;
type GuardAnswer = JsonAnswer<typeof GuardBodySchema>;

const guard = (description: string, example: z.input<typeof GuardBodySchema>): GuardAnswer =>
  json(description, GuardBodySchema, example);
const error = (
  status: RouteErrorStatus | 429 | 500,
  description: string,
  retryAfter = status === 429 || status === 503,
): ErrorAnswer => json(description, ErrorBodySchema, undefined, retryAfter ? RETRY_AFTER : undefined);

const FORBIDDEN = () =>
  guard('The caller is not on the local network (judged by its TCP address only).', {
    error: 'Forbidden: local network access only',
  });

/** /health's errors: the local-network guard and the per-caller rate apply to it too. */
export const PUBLIC_ERRORS = { 403: FORBIDDEN(), 429: error(429, DEFAULTS[429]) };

/**
 * Every error a route behind the key answers: 401, 403, 429 and 500 always, plus the
 * statuses the route itself gives. `describe` replaces a default description (for
 * example a 503 that names the route's own codes).
 */
export function bearerErrors<const S extends RouteErrorStatus>(
  statuses: readonly S[],
  describe: Partial<Record<S | 429, string>> = {},
  /** A route whose 503 never says Retry-After (inbox_disabled: waiting does not help). */
  opts: { noRetryAfter503?: boolean } = {},
) {
  const own = Object.fromEntries(
    statuses.map((s) => [s, error(s, describe[s] ?? DEFAULTS[s], s === 503 && !opts.noRetryAfter503)]),
  ) as Record<S, ErrorAnswer>;
  return {
    401: guard(
      'No usable key: the Authorization: Bearer header is missing, malformed, duplicated or holds a wrong (or ' +
        'rotated) key.',
      {
        error: 'Unauthorized',
      },
    ),
    403: FORBIDDEN(),
    429: error(429, describe[429] ?? DEFAULTS[429]),
    500: error(500, DEFAULTS[500]),
    ...own,
  };
}
