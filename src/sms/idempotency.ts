// Idempotency-Key: a repeated key with the same request gets the first answer (stored
// with the message, or still being worked out) and never a second hand-off; the same key
// with a different request is refused (invalid_request). Only the request's hash is kept, never the text twice.
import { createHash } from 'node:crypto';
import { gatewayError } from '../core/errors.js';
import type { MessageRow, MessageStore } from '../store/messages.js';
import type { SendRequest } from './validation.js';
import { tagsHashFields } from './tags.js';

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
