// The Idempotency-Key request header (POST /api/sms/send, POST /api/messages): absent, or
// exactly one header of 1 to 128 printable ASCII characters; anything else is a 400.
import * as z from 'zod';
import { gatewayError } from '../core/errors.js';

const IDEMPOTENCY_KEY = /^[\x20-\x7e]{1,128}$/;

/** The header as the OpenAPI document shows it (the route checks it with idempotencyKey()). */
export const IdempotencyKeyHeaderSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(128)
    .regex(IDEMPOTENCY_KEY)
    .optional()
    .describe(
      '1 to 128 printable ASCII characters; the same key gets the first answer again and nothing is sent twice',
    ),
});

/** The request's Idempotency-Key: undefined when absent; 400 when repeated or malformed. */
export function idempotencyKey(rawHeaders: string[]): string | undefined {
  const values: string[] = [];
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'idempotency-key') values.push(rawHeaders[i + 1]!);
  }
  if (values.length === 0) return undefined;
  if (values.length > 1 || !IDEMPOTENCY_KEY.test(values[0]!)) {
    throw gatewayError('invalid_request', 'idempotencyKeyHeader');
  }
  return values[0];
}
