// The opt-out list shared by the gateways of one prefix (docs/mqtt.md "How do phones on one broker
// share the opt-out list?"). Each change this gateway makes (a keyword, the API) is published
// retained, QoS 1, on `<prefix>/opt-outs/<number>` as `{ optedOut, at, by, proof }` (never an empty
// payload); the store keeps it `unshared` until the broker gives it back on `<prefix>/opt-outs/+`,
// and every connect publishes what is still unshared, so neither a restart nor an outage loses it.
// What is read there is applied when newer than what the list holds and recorded `by: mqtt` (not
// published again), except: a change dated more than FUTURE_SLACK_MS ahead of this phone's clock is
// ignored and logged; a change without a valid proof (opt-out-proof.ts) may add a number, never take
// one off (without a share secret no removal read there is applied). When the broker's copy of a
// number is not this gateway's own last change of it, that change is published again
// (opt-out-restore.ts). Inputs: shareChange (a change of this gateway's list, after its commit) and
// applyRemote (a change read from the broker).
import type { Logger } from 'pino';
import * as z from 'zod';
import type { Clock } from '../core/clock.js';
import type { OptOutList } from '../sms/opt-out-list.js';
import { normalizeRecipient } from '../sms/recipient.js';
import { createOptOutProof } from './opt-out-proof.js';
import { createOptOutRestore } from './opt-out-restore.js';
import type { Topics } from './topics.js';

/** How far ahead of this phone's clock a shared change may be dated (clocks that disagree a little). */
export const FUTURE_SLACK_MS = 5 * 60_000;
/** Unshared changes read from the store at a time, at each connect. */
const PAGE = 200;
/** Refusals warned about (once each) while running: an attacker's flood cannot fill the log or memory. */
const MAX_WARNED = 1000;

/** A change of the list, however it is delivered (the list's listener, an event). */
export interface OptOutChange {
  number: string;
  optedOut: boolean;
  /** ms since epoch, UTC. */
  at: number;
  by: string;
}

/** A change read from the broker: its fields and the proof it carried (unchecked). */
export interface RemoteChange extends OptOutChange {
  proof: string | undefined;
}

/** What became of a change read from the broker. */
export type RemoteOutcome = 'applied' | 'older' | 'future' | 'unproven';

const SharedSchema = z.object({
  optedOut: z.boolean(),
  at: z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  by: z.string().max(32),
  proof: z.string().max(128).optional(),
});

export interface OptOutSharingDeps {
  list: Pick<OptOutList, 'applyShared' | 'get' | 'unshared' | 'markShared'>;
  topics: Pick<Topics, 'optOut' | 'optOutNumber'>;
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;
  clock: Pick<Clock, 'now' | 'setTimer'>;
  /** SMS_GATEWAY_MQTT_SHARE_SECRET; undefined: nothing is proven, no removal read is applied. */
  secret: string | undefined;
  logger?: Logger | undefined;
}

/** The number an opt-out topic names, written as this gateway writes it (one list entry per number), or undefined. */
function topicNumber(topics: OptOutSharingDeps['topics'], topic: string): string | undefined {
  const raw = topics.optOutNumber(topic);
  if (raw === undefined) return undefined;
  const number = normalizeRecipient(raw);
  return number.ok && number.number === raw ? raw : undefined;
}

/** The change a payload carries for the number, or undefined (malformed in any way). */
function parseShared(number: string, payload: Buffer): RemoteChange | undefined {
  if (payload.length > 1024) return undefined;
  try {
    const shared = SharedSchema.parse(JSON.parse(payload.toString('utf8')));
    return { number, optedOut: shared.optedOut, at: shared.at, by: shared.by, proof: shared.proof };
  } catch {
    return undefined;
  }
}

const REFUSED = {
  future: "mqtt: a shared opt-out change dated more than 5 minutes ahead of this phone's clock was ignored",
  unproven: 'mqtt: a shared opt-out removal without a valid proof was ignored (is the share secret the same?)',
} as const;

/**
 * Logs a change not applied: once per number and reason at warn, then at debug; never the number
 * (a topic names it) nor the payload. Without a secret every removal is unproven: said once, here.
 */
function createRefusalLog(logger: Logger | undefined, withSecret: boolean) {
  const warned = new Set<string>();
  if (!withSecret) {
    logger?.warn(
      'SMS_GATEWAY_MQTT_SHARE_SECRET is not set: opt-out removals shared by other phones are not applied ' +
        '(additions are), and the changes this phone shares carry no proof',
    );
  }
  return (number: string, why: keyof typeof REFUSED): void => {
    const key = `${why} ${number}`;
    const first = warned.size < MAX_WARNED && !warned.has(key);
    if (first) warned.add(key);
    const level = first && (withSecret || why !== 'unproven') ? 'warn' : 'debug';
    logger?.[level]({ why }, REFUSED[why]);
  };
}

/** Every change of this gateway's the broker has not given back yet, page by page, while connected. */
function publishUnshared(list: OptOutSharingDeps['list'], publish: (c: OptOutChange) => boolean): void {
  for (let after = ''; ;) {
    const rows = list.unshared(after, PAGE);
    for (const row of rows) if (!publish(row)) return; // disconnected again: the next connect goes on
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.number;
  }
}

export function createOptOutSharing(deps: OptOutSharingDeps) {
  const { list, topics, clock, logger } = deps;
  const proof = deps.secret === undefined ? undefined : createOptOutProof(deps.secret);
  const refused = createRefusalLog(logger, proof !== undefined);

  const publish = (c: OptOutChange): boolean => {
    const fields = { number: c.number, optedOut: c.optedOut, at: c.at };
    const body = { optedOut: c.optedOut, at: c.at, by: c.by, ...(proof ? { proof: proof.prove(fields) } : {}) };
    return deps.publish(topics.optOut(c.number), JSON.stringify(body), { qos: 1, retain: true });
  };
  const restore = createOptOutRestore(clock, (number) => {
    const mine = list.get(number);
    if (mine && mine.by !== 'mqtt') publish(mine);
  });

  /** What a change read from the broker does to the list (nothing when it is dated ahead or an unproven removal). */
  const outcomeOf = (change: RemoteChange): RemoteOutcome => {
    if (change.at > clock.now() + FUTURE_SLACK_MS) {
      refused(change.number, 'future');
      return 'future';
    }
    const proven = proof?.verify(change, change.proof) === true;
    // The broker gave back one of this gateway's own changes: shared (an unproven copy proves nothing).
    if (proven || !proof) list.markShared(change);
    if (!change.optedOut && !proven) {
      if (list.get(change.number)?.optedOut) refused(change.number, 'unproven');
      return 'unproven';
    }
    const { number, optedOut, at } = change;
    return list.applyShared({ number, optedOut, at, by: 'mqtt' }) ? 'applied' : 'older';
  };

  /**
   * A change read from the broker, applied to the list when newer, dated in time and (for a removal)
   * proven. A refused one, or one older than this gateway's own change of the number, restores that.
   * (Without a secret this gateway's own removals come back unproven: those restore nothing.)
   */
  const applyRemote = (change: RemoteChange): RemoteOutcome => {
    const outcome = outcomeOf(change);
    if (outcome === 'applied') return outcome;
    const mine = list.get(change.number);
    const stale = outcome === 'older' && mine !== undefined && mine.at > change.at;
    if (outcome === 'future' || (outcome === 'unproven' && proof !== undefined) || stale) restore(change.number);
    return outcome;
  };

  return {
    /** A change of this gateway's list, after its commit: published now, or (kept unshared) at the next connect. */
    shareChange(change: OptOutChange): void {
      if (change.by !== 'mqtt') publish(change);
    },
    applyRemote,
    /** An inbound message on `<prefix>/opt-outs/+`; one that is not a change is ignored. */
    handle(topic: string, payload: Buffer): void {
      const number = topicNumber(topics, topic);
      // An empty payload clears the broker's copy (docs/mqtt.md): nothing to read, nothing restored.
      if (number === undefined || payload.length === 0) return;
      const change = parseShared(number, payload);
      if (!change) {
        logger?.debug('mqtt: an opt-out message that is not one was ignored');
        restore(number);
        return;
      }
      if (applyRemote(change) !== 'applied') return;
      logger?.info({ optedOut: change.optedOut }, 'an opt-out change shared by another gateway was applied');
    },
    /** On connect: every change of this gateway's the broker has not given back yet. */
    onConnect: () => publishUnshared(list, publish),
  };
}

export type OptOutSharing = ReturnType<typeof createOptOutSharing>;
