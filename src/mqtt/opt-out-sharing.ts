// The opt-out list shared by the gateways of one prefix (decisions "Opt-out (STOP)"): each
// change this gateway makes (a keyword, the API) is published retained, QoS 1, on
// `<prefix>/opt-outs/<number>` as `{ optedOut, at, by }` (never an empty payload); what is
// read on `<prefix>/opt-outs/+` (retained ones at every subscribe: a gateway that was away
// catches up) is applied when newer than what the list holds, recorded `by: mqtt` and not
// published again. A change made while the broker is unreachable is published at the next
// connect (kept in memory only; at most MAX_PENDING numbers).
import type { Logger } from 'pino';
import { z } from 'zod';
import type { OptOutList } from '../sms/opt-out-list.js';
import { normalizeRecipient } from '../sms/recipient.js';
import type { Subscriber } from '../core/dispatcher.js';
import type { OptOutEvents, OptOutRow } from '../store/opt-outs.js';
import type { Topics } from './topics.js';

export const MAX_PENDING = 1000;

const SharedSchema = z.object({
  optedOut: z.boolean(),
  at: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  by: z.string().max(32),
});

export interface OptOutSharingDeps {
  list: Pick<OptOutList, 'applyShared' | 'get'>;
  /** The event path: this gateway's own changes (`opt-out.changed`, after their commit). */
  events: Subscriber<OptOutEvents>;
  topics: Pick<Topics, 'optOut' | 'optOutNumber'>;
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;
  logger?: Logger | undefined;
}

const payloadOf = (row: OptOutRow) => JSON.stringify({ optedOut: row.optedOut, at: row.at, by: row.by });

/** The shared row a message carries, or undefined (not ours to read, malformed, an empty payload). */
function parseShared(topics: OptOutSharingDeps['topics'], topic: string, payload: Buffer): OptOutRow | undefined {
  const raw = topics.optOutNumber(topic);
  if (raw === undefined || payload.length === 0 || payload.length > 1024) return undefined;
  const number = normalizeRecipient(raw);
  // Only a number written as this gateway writes it: one list entry per number.
  if (!number.ok || number.number !== raw) return undefined;
  try {
    const shared = SharedSchema.parse(JSON.parse(payload.toString('utf8')));
    return { number: raw, optedOut: shared.optedOut, at: shared.at, by: 'mqtt' };
  } catch {
    return undefined;
  }
}

export function createOptOutSharing(deps: OptOutSharingDeps) {
  const { list, topics, logger } = deps;
  /** Numbers whose change could not be published yet (the broker was unreachable). */
  const pending = new Set<string>();

  const publishRow = (row: OptOutRow): boolean => deps.publish(topics.optOut(row.number), payloadOf(row), { qos: 1, retain: true });

  deps.events.on('opt-out.changed', (row) => {
    if (publishRow(row)) pending.delete(row.number);
    else if (pending.size < MAX_PENDING) pending.add(row.number);
  });

  return {
    /** An inbound message on `<prefix>/opt-outs/+`: applied when newer; a bad one is ignored. */
    handle(topic: string, payload: Buffer): void {
      const row = parseShared(topics, topic, payload);
      if (!row) {
        if (payload.length > 0) logger?.debug({ topic }, 'mqtt: an opt-out message that is not one was ignored');
        return;
      }
      if (list.applyShared(row)) logger?.info({ optedOut: row.optedOut }, 'an opt-out change shared by another gateway was applied');
    },
    /** On connect: what could not be published while away, as the list holds it now. */
    onConnect(): void {
      for (const number of [...pending]) {
        const row = list.get(number);
        if (!row || row.by === 'mqtt') pending.delete(number);
        else if (publishRow(row)) pending.delete(number);
      }
    },
  };
}

export type OptOutSharing = ReturnType<typeof createOptOutSharing>;
