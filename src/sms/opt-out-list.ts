// The opt-out list as sending sees it (decisions "Opt-out (STOP)"): numbers normalized like
// a recipient, added and removed (by a keyword, the API or a gateway sharing the broker),
// and the one rule every sending path asks: whether a message to a number is blocked. The
// opt-out feature's own answers (the confirmation of a STOP, HELP) are recorded with the
// source OPT_OUT_SOURCE and are never blocked: "you are unsubscribed" goes to a listed number.
// The confirmation of a START is the exception (its Idempotency-Key begins OPT_IN_ANSWER_KEY):
// when its number is listed again before its hand-off, "you are subscribed again" must not go.
// A number and the same digits with or without a leading + are one number to the list (as to
// the inbox's threads and inReplyTo): STOP from +15550001234 also blocks a send to 15550001234,
// and taking either form off takes off both.
// Each change is told to `changed` and to every listener added with onChange (MQTT shares
// it) after it was written; a change applied from another gateway (applyShared) is not.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { gatewayError } from '../core/errors.js';
import type { OptOutRow, OptOutStore } from '../store/opt-outs.js';
import { normalizeRecipient, numberForms } from './recipient.js';

/** What the records show as the source of the opt-out feature's own answers. */
export const OPT_OUT_SOURCE = 'opt-out';

/** How the Idempotency-Key of a START's confirmation begins (sms/opt-out-replies.ts). */
export const OPT_IN_ANSWER_KEY = 'opt-in:';

/** Whether a message from this source, with this Idempotency-Key, is one the list may not block. */
const exempt = (sourceIp: string, idempotencyKey: string | null | undefined) =>
  sourceIp === OPT_OUT_SOURCE && !(idempotencyKey ?? '').startsWith(OPT_IN_ANSWER_KEY);

export type OptOutChangeBy = 'sms' | 'api' | 'mqtt';

export interface OptOutListDeps {
  store: OptOutStore;
  clock: Clock;
  /** After a change was written (not for a change that changed nothing). */
  changed?: (row: OptOutRow) => void;
  logger?: Logger | undefined;
}

/** The number as stored: normalized like a recipient; an invalid one is invalid_request naming `where` (body.number, params.number). */
export function optOutNumber(raw: string, where = 'body.number'): string {
  const r = normalizeRecipient(raw);
  if (!r.ok) throw gatewayError('invalid_request', 'problem', `${where}${r.message.replace(/^to /, ' ')}.`);
  return r.number;
}

export function createOptOutList(deps: OptOutListDeps) {
  const { store, clock } = deps;
  const listedForms = (number: string) => numberForms(number).filter((form) => store.isListed(form));
  const listeners: ((row: OptOutRow) => void)[] = deps.changed ? [deps.changed] : [];
  const change = (number: string, optedOut: boolean, by: OptOutChangeBy): OptOutRow | undefined => {
    const row = { number, optedOut, at: clock.now(), by };
    if (!store.change(row)) return undefined;
    deps.logger?.info({ optedOut, by }, optedOut ? 'a number opted out' : 'a number opted back in');
    for (const listener of listeners) listener(row);
    return row;
  };
  return {
    /** Adds a listener of this gateway's own changes (a part built later: MQTT). */
    onChange(listener: (row: OptOutRow) => void): void {
      listeners.push(listener);
    },
    /** Puts a (normalized) number on the list; the new row, or undefined when it (in either form) was listed already. */
    add: (number: string, by: OptOutChangeBy) => (listedForms(number).length > 0 ? undefined : change(number, true, by)),
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
    /** Whether a message to this (normalized) number, from this source (with this Idempotency-Key), must not be handed off. */
    blocks: (number: string, sourceIp: string, idempotencyKey?: string | null) => !exempt(sourceIp, idempotencyKey) && listedForms(number).length > 0,
    list: (page: { limit: number; offset: number }) => store.list(page),
    /** How many numbers are listed now. */
    count: () => store.count(),
  };
}

export type OptOutList = ReturnType<typeof createOptOutList>;
