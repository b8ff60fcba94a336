// SMSGate's processing states of our records: a recipient's state (waiting: Pending, its hand-off
// started: Processed, sent: Sent, failed: Failed with the reason named, cancelled: Cancelled), a
// message's state from its recipients' as SMSGate derives it (any Pending, else any Cancelled, else
// any Processed, else all Failed: Failed, else Sent), and when each state was reached. Delivered
// never happens here (Termux:API reports no delivery).
import type { MessageRow } from '../store/messages.js';
import type { SmsgateListState } from '../store/smsgate-messages.js';
import { REASON_HINTS } from './reasons.js';

export type SmsgateState = SmsgateListState;

export interface SmsgateRecipientState {
  state: SmsgateState;
  /** Failed only: the reason's code and what it means. */
  error?: string;
}

export function recipientState(row: MessageRow): SmsgateRecipientState {
  switch (row.status) {
    case 'queued':
      return { state: row.handoffStartedAt === null ? 'Pending' : 'Processed' };
    case 'sent':
      return { state: 'Sent' };
    case 'cancelled':
      return { state: 'Cancelled' };
    case 'failed': {
      const reason = row.reason ?? 'unconfirmed';
      return { state: 'Failed', error: `${reason}: ${REASON_HINTS[reason]}` };
    }
  }
}

/** The message's state from its recipients' states (SMSGate's own order of precedence). */
export function messageState(states: readonly SmsgateState[]): SmsgateState {
  for (const first of ['Pending', 'Cancelled', 'Processed'] as const) if (states.includes(first)) return first;
  return states.length > 0 && states.every((s) => s === 'Failed') ? 'Failed' : 'Sent';
}

/** When a recipient reached each state it has been in (ms since epoch). */
function reached(row: MessageRow): [SmsgateState, number][] {
  const times: [SmsgateState, number][] = [['Pending', row.createdAt]];
  if (row.handoffStartedAt !== null) times.push(['Processed', row.handoffStartedAt]);
  const final = recipientState(row).state;
  if (final !== 'Pending' && final !== 'Processed') times.push([final, row.updatedAt]);
  return times;
}

/**
 * Each state the message's recipients have reached, at the time the last of them reached it (Pending:
 * when it was accepted), in the order of the lifecycle.
 */
export function stateTimes(rows: readonly MessageRow[]): Partial<Record<SmsgateState, number>> {
  const times: Partial<Record<SmsgateState, number>> = {};
  for (const row of rows) {
    for (const [state, at] of reached(row)) times[state] = Math.max(times[state] ?? at, at);
  }
  const order: SmsgateState[] = ['Pending', 'Processed', 'Sent', 'Failed', 'Cancelled'];
  return Object.fromEntries(order.filter((s) => times[s] !== undefined).map((s) => [s, times[s]]));
}
