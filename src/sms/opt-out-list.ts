// The opt-out list as sending sees it (docs/receiving.md): numbers normalized like
// a recipient, added and removed (by a keyword, the API or a gateway sharing the broker),
// and the one rule every sending path asks: whether a message to a number is blocked. It
// asks the message's origin, nothing else: the opt-out feature's own answers (origin
// opt_out_reply, help_reply) are never blocked: "you are unsubscribed" goes to a listed number.
// The confirmation of a START (opt_in_reply) is blocked like any other message: when its
// number is listed again before its hand-off, "you are subscribed again" must not go.
// A number and the same digits with or without a leading + are one number to the list (as to
// the inbox's threads and inReplyTo): STOP from +15550001234 also blocks a send to 15550001234,
// and taking either form off takes off both.
// Each change is announced on the event path as `opt-out.changed` (MQTT shares it) once the
// transaction that wrote it committed (the inbox's, for a keyword); a change applied from
// another gateway (applyShared) is not.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { gatewayError } from '../core/errors.js';
import type { Origin } from '../store/message-record.js';
import type { Emitter } from '../core/dispatcher.js';
import type { OptOutEvents, OptOutRow, OptOutStore } from '../store/opt-outs.js';
import { normalizeRecipient, numberForms } from './recipient.js';

/** What the records show as the source address of the opt-out feature's own answers (as in 0.4). */
export const OPT_OUT_SOURCE = 'opt-out';

/** The origins the list never blocks: a STOP's confirmation and the HELP answer. */
const EXEMPT: ReadonlySet<Origin> = new Set<Origin>(['opt_out_reply', 'help_reply']);

export type OptOutChangeBy = 'sms' | 'api' | 'mqtt';

export interface OptOutListDeps {
  store: OptOutStore;
  clock: Clock;
  /** Where a committed change is announced (not a change that changed nothing). */
  events?: Emitter<OptOutEvents> | undefined;
  logger?: Logger | undefined;
}

/**
 * The number as stored: normalized like a recipient; an invalid one is invalid_request naming `where` (body.number,
 * params.number).
 */
export function optOutNumber(raw: string, where = 'body.number'): string {
  const r = normalizeRecipient(raw);
  if (!r.ok) throw gatewayError('invalid_request', 'problem', `${where}${r.message.replace(/^to /, ' ')}.`);
  return r.number;
}

export function createOptOutList(deps: OptOutListDeps) {
  const { store, clock } = deps;
  const listedForms = (number: string) => numberForms(number).filter((form) => store.isListed(form));
  const announce = (row: OptOutRow) => {
    const what = row.optedOut ? 'a number opted out' : 'a number opted back in';
    deps.logger?.info({ optedOut: row.optedOut, by: row.by }, what);
    deps.events?.emit('opt-out.changed', row);
  };
  const change = (number: string, optedOut: boolean, by: OptOutChangeBy): OptOutRow | undefined => {
    const row = { number, optedOut, at: clock.now(), by };
    return store.change(row, false, announce) ? row : undefined;
  };
  return {
    /**
     * Puts a (normalized) number on the list; the new row, or undefined when it (in either form) was listed already.
     */
    add: (number: string, by: OptOutChangeBy) =>
      listedForms(number).length > 0 ? undefined : change(number, true, by),
    /** Takes a (normalized) number off the list, in both forms; the row, or undefined when it was not listed. */
    remove: (number: string, by: OptOutChangeBy) => listedForms(number).map((form) => change(form, false, by))[0],
    /** A change read from another gateway: applied only over an older one. */
    applyShared(row: OptOutRow): boolean {
      return store.change(row, true);
    },
    /** This gateway's changes not yet shared over MQTT, and the mark that one was (store/opt-outs.ts). */
    unshared: (after: string, limit: number) => store.unshared(after, limit),
    markShared: (row: Pick<OptOutRow, 'number' | 'optedOut' | 'at'>) => store.markShared(row),
    /** Whether the number, in either form, is on the list now. */
    isListed: (number: string) => listedForms(number).length > 0,
    /** The entry of this very number (listed or taken off again), if it ever had one. */
    get: (number: string) => store.get(number),
    /** The entry that lists the number (in either form), if it is listed. */
    listing: (number: string) => listedForms(number).map((form) => store.get(form))[0],
    /** Whether a message to this (normalized) number, of this origin, must not be handed off. */
    blocks: (number: string, origin: Origin) => !EXEMPT.has(origin) && listedForms(number).length > 0,
    list: (page: { limit: number; offset: number }) => store.list(page),
    /** How many numbers are listed now. */
    count: () => store.count(),
  };
}

export type OptOutList = ReturnType<typeof createOptOutList>;
