// The SMSGate routes' answers as /openapi.json shows them: their tag and security (Basic or
// Bearer), and their errors in SMSGate's shape, 401, 403, 429 and 500 with every route.
import * as z from 'zod';
import { json, RETRY_AFTER, type JsonAnswer } from '../route-docs.js';
import { GuardBodySchema } from '../schemas.js';

export const SmsgateErrorSchema = z
  .object({ message: z.string().describe('What went wrong and what to do') })
  .meta({ id: 'SmsgateError' });

/** Every SMSGate route's tag and its two ways in. */
export const SMSGATE_ROUTE = { tags: ['smsgate'], security: [{ basic: [] }, { bearer: [] }] } as const;

type SmsgateAnswer = JsonAnswer<typeof SmsgateErrorSchema>;

/** The statuses an SMSGate route may answer for itself. */
export type SmsgateStatus = 400 | 404 | 405 | 409 | 413 | 415 | 503;

const answer = (description: string, retryAfter = false): SmsgateAnswer =>
  json(description, SmsgateErrorSchema, undefined, retryAfter ? RETRY_AFTER : undefined);

/** The statuses a route answers for itself, each with what it means here. */
export function smsgateErrors<const S extends SmsgateStatus>(own: Readonly<Record<S, string>>) {
  const mine = Object.fromEntries(
    Object.entries<string>(own).map(([status, description]) => [status, answer(description, status === '503')]),
  ) as Record<S, SmsgateAnswer>;
  return {
    401: answer('No usable credential: Basic <any user>:<API key> or Bearer <API key>.'),
    403: json('The caller is not on the local network (judged by its TCP address only).', GuardBodySchema, {
      error: 'Forbidden: local network access only',
    }),
    429: answer('More than about 10 requests per second from this address; wait Retry-After seconds.', true),
    500: answer('A bug; the gateway logged the details (the answer never carries them).'),
    ...mine,
  };
}
