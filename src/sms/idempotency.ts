// Idempotency-Key: a repeated key with the same request gets the first answer (stored
// with the message, or still being worked out) and never a second hand-off; the same key
// with a different request is refused (invalid_request). Only the request's hash is kept, never the text twice.
// Two spaces of keys: those callers send (1 to 128 printable ASCII characters, the HTTP header
// and the MQTT id alike) and those the gateway makes for itself (alert receivers, opt-out
// answers, rule replies, e-mail), stored behind a control character no caller's key can hold,
// so no caller's key can ever match, replay or block one of the gateway's own.
import { createHash } from 'node:crypto';
import { gatewayError } from '../core/errors.js';
import type { MessageRow, MessageStore } from '../store/messages.js';
import type { SendRequest } from './validation.js';
import { tagsHashFields } from './tags.js';

/** What begins a key of the gateway's own space (ASCII unit separator: never in a caller's key). */
const OWN_SPACE = '\u001f';

/** A key the gateway makes for itself, in its own space. */
export const ownKey = (key: string): string => `${OWN_SPACE}${key}`;

/**
 * The key a request is kept under: the gateway's own in its space, a caller's as sent (one
 * that could be taken for the gateway's is refused, though the doors never let one through).
 */
type Keys = { idempotencyKey?: string | undefined; ownKey?: string | undefined };

export function storedKey(ctx: Keys): string | undefined {
  if (ctx.ownKey !== undefined) return ownKey(ctx.ownKey);
  const key = ctx.idempotencyKey;
  if (key?.startsWith(OWN_SPACE)) throw gatewayError('invalid_request', 'idempotencyKeyHeader');
  return key;
}

/** The synchronous send's request hash (unchanged since 0.1 without tags: stored hashes stay valid). */
export function requestHash(req: SendRequest): string {
  return hashOf([req.to, req.message, req.simSlot ?? null, ...tagsHashFields(req.tags)]);
}

/** Any request's hash; a queued request hashes its fields under its own tag. */
export function hashOf(fields: unknown): string {
  return createHash('sha256').update(JSON.stringify(fields)).digest('hex');
}

export interface IdempotencyDeps<O> {
  store: Pick<MessageStore, 'byIdempotencyKey'>;
  /** The outcome for a stored message whose request is repeated. */
  replay: (row: MessageRow) => O;
}

/** O: the path's outcome (sms/outcomes.ts), the same for the first request and its replays. */
export function createIdempotency<O>(deps: IdempotencyDeps<O>) {
  /** Keys whose first request is still being handled. */
  const inFlight = new Map<string, { hash: string; outcome: Promise<O> }>();
  return {
    /** The earlier answer for this key, or undefined when the key is new. */
    earlier(key: string, hash: string): O | Promise<O> | undefined {
      const running = inFlight.get(key);
      const stored = running ? undefined : deps.store.byIdempotencyKey(key);
      const firstHash = running?.hash ?? stored?.requestHash;
      if ((running || stored) && firstHash !== hash) {
        throw gatewayError('invalid_request', 'idempotencyKeyReused');
      }
      if (running) return running.outcome;
      if (stored) return deps.replay(stored);
      return undefined;
    },
    /** Answers repeats of this key with `outcome` until it settles (then the store does). */
    async first(key: string, hash: string, outcome: Promise<O>): Promise<O> {
      inFlight.set(key, { hash, outcome });
      try {
        return await outcome;
      } finally {
        inFlight.delete(key);
      }
    },
  };
}
