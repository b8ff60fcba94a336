// Which waiting request the app is handed next (issue 34, case 1; decisions, "Fair share
// under a hostile LAN"). Requests never go to the app as they are read: their connections
// wait in the queue of their caller's address (the connection table's grouping), and one
// request is handed over per event-loop turn (from setImmediate), so between any two answers
// Node reads its sockets and a newcomer's request joins the queues. The address served next
// is the one whose waiting requests would be done soonest, in bytes served (self-clocked fair
// queueing: each address carries a tag, its share used so far; a served request adds
// REQUEST_COST plus its answer's bytes; an address that was quiet starts at the tag of the
// last request served, so quiet time earns no credit; each of its connections waiting is
// guessed to cost what its last request did, remembered for the last MAX_REMEMBERED
// addresses). So among addresses at the same tag the one asking for small answers, or on
// fewer connections at once, goes first: a caller of small answers is served within a turn or
// two however many pages the addresses before it asked for, and a flood of addresses each on
// many connections does not hold back one asking on one. Within an address its connections
// take turns. No turn is taken while the answer budget is in debt (http/answer-budget.ts): the
// next one waits on the clock until it is paid. The answers themselves are the owner's
// (`start`, http/slow-readers.ts).
import type { Clock, Timer } from '../core/clock.js';
import { createAnswerBudget } from './answer-budget.js';

/** What a request costs beside its answer's bytes, so that small answers count too. */
export const REQUEST_COST = 1024;
/** Addresses whose last request's cost is remembered after their queue is gone (least recently served forgotten first). */
export const MAX_REMEMBERED = 4096;

interface Flow<L> {
  /** Connections of the address with a request ready to be handed over, in turn. */
  ready: Set<L>;
  /** The address's share used: the virtual time at which its next request may start. */
  tag: number;
  /** What its last request cost (REQUEST_COST and its answer's bytes): the guess for its next. */
  cost: number;
}

export interface FairTurnsDeps<L> {
  clock: Clock;
  /** Hands the connection's first waiting request to the app. */
  start: (line: L) => void;
  /** Runs `turn` after the I/O already pending (setImmediate; a test may pass its own). */
  defer?: ((turn: () => void) => void) | undefined;
}

/** The address's last cost, most recent last; past MAX_REMEMBERED the oldest is forgotten. */
function remember(lastCost: Map<string, number>, address: string, cost: number): void {
  lastCost.delete(address);
  lastCost.set(address, cost);
  if (lastCost.size > MAX_REMEMBERED) lastCost.delete(lastCost.keys().next().value!);
}

export function createFairTurns<L extends { readonly holder: string }>(deps: FairTurnsDeps<L>) {
  const defer = deps.defer ?? ((turn: () => void) => void setImmediate(turn));
  const flows = new Map<string, Flow<L>>();
  /** The last request's cost of recently served addresses, oldest first. */
  const lastCost = new Map<string, number>();
  /** The tag of the last request handed over. */
  let virtual = 0;
  let scheduled = false;
  const budget = createAnswerBudget(() => deps.clock.monotonicMs());
  /** The turn waiting for the budget's debt to be paid. */
  let paying: Timer | undefined;

  function schedule(): void {
    if (scheduled || paying) return;
    scheduled = true;
    defer(turn);
  }

  /** When the address's waiting requests would be done, in bytes served. */
  const ends = (flow: Flow<L>) => Math.max(flow.tag, virtual) + flow.cost * flow.ready.size;

  /** The address to serve next: the soonest end among those with a connection ready; forgets spent quiet ones. */
  function pick(): Flow<L> | undefined {
    let best: Flow<L> | undefined;
    for (const [address, flow] of flows) {
      if (flow.ready.size === 0) {
        if (flow.tag <= virtual) flows.delete(address);
        continue;
      }
      if (!best || ends(flow) < ends(best)) best = flow;
    }
    return best;
  }

  function turn(): void {
    scheduled = false;
    const waitMs = budget.waitMs();
    if (waitMs > 0) {
      paying = deps.clock.setTimer(() => {
        paying = undefined;
        schedule();
      }, waitMs);
      return;
    }
    const flow = pick();
    if (!flow) return;
    const line = flow.ready.values().next().value as L;
    flow.ready.delete(line);
    virtual = Math.max(flow.tag, virtual);
    flow.tag = virtual + REQUEST_COST;
    // More may be ready (here or at other addresses): the next one after the I/O of this turn.
    schedule();
    deps.start(line);
  }

  return {
    /** The connection has a request to hand over (it is not answering one). */
    ready(line: L): void {
      let flow = flows.get(line.holder);
      if (!flow) flows.set(line.holder, (flow = { ready: new Set(), tag: virtual, cost: lastCost.get(line.holder) ?? REQUEST_COST }));
      flow.ready.add(line);
      schedule();
    },
    /** The connection's answer was `bytes` long: its address's share grows by them. */
    charge(line: L, bytes: number): void {
      budget.spend(bytes);
      remember(lastCost, line.holder, REQUEST_COST + bytes);
      const flow = flows.get(line.holder);
      if (!flow) return void flows.set(line.holder, { ready: new Set(), tag: virtual + bytes, cost: REQUEST_COST + bytes });
      flow.tag += bytes;
      flow.cost = REQUEST_COST + bytes;
    },
    /** The connection is gone: it is not served. */
    leave(line: L): void {
      flows.get(line.holder)?.ready.delete(line);
    },
  };
}

export type FairTurns<L extends { readonly holder: string }> = ReturnType<typeof createFairTurns<L>>;
