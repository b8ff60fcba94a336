// What one look at the phone's SMS store says about a message awaiting its sent-box
// confirmation (confirmation.ts does the looking): the entry that is this message, the
// verdict (sent, failed, unconfirmed, interrupted, or look again later), and when the
// message is looked for next (a successful hand-off for CONFIRM_WINDOW_MS, an interrupted
// one for RECOVERY_WINDOW_MS).
import { localTimeToMs, sameNumber, type listSms, type SmsEntry } from '../device/sms-list.js';
import type { MessageRow, Settlement } from '../store/messages.js';

export const CONFIRM_WINDOW_MS = 120_000;
/** When to look, counted from the hand-off. */
const CHECK_AT_MS = [5_000, 15_000, 30_000, 60_000, 90_000, CONFIRM_WINDOW_MS];
/**
 * An interrupted hand-off's process group was ended at the start, so whatever reached the
 * phone is in its SMS store within seconds (as outbox, then sent or failed).
 */
export const RECOVERY_WINDOW_MS = 30_000;
const RECOVERY_CHECK_AT_MS = [5_000, 15_000, RECOVERY_WINDOW_MS];
/** The phone's clock and ours may differ a little; a match must not be older than this. */
const CLOCK_SLACK_MS = 5 * 60_000;
const OUTGOING_TYPES = new Set(['sent', 'failed', 'outbox', 'queued', '']);

export interface Pending {
  since: number;
  checks: number;
  /** An interrupted hand-off (not found: failed/interrupted), not a successful one. */
  recovering: boolean;
}

/** When a pending message is looked for next, and when its window ends. */
const checksOf = (p: Pending) => (p.recovering ? RECOVERY_CHECK_AT_MS : CHECK_AT_MS);
export const nextAt = (p: Pending) => {
  const at = checksOf(p);
  return p.since + (at[Math.min(p.checks, at.length - 1)] ?? CONFIRM_WINDOW_MS);
};
export const windowEnd = (p: Pending) => p.since + (p.recovering ? RECOVERY_WINDOW_MS : CONFIRM_WINDOW_MS);

/** The oldest unclaimed outgoing store entry that is this message. */
const match = (row: MessageRow, entries: SmsEntry[], claimed: Set<number>, tz: string) =>
  entries
    .filter((e) => OUTGOING_TYPES.has(e.type) && !claimed.has(e.id))
    .filter((e) => sameNumber(e.address, row.sendTo) && e.body.trim() === row.body.trim())
    .filter((e) => {
      const at = localTimeToMs(e.received, tz);
      return at === null || at >= (row.handoffStartedAt ?? row.createdAt) - CLOCK_SLACK_MS;
    })
    .sort((a, b) => a.id - b.id)[0];

export type Verdict = { s: Omit<Settlement, 'at' | 'handedOff'>; handedOff: boolean };

/** Not found: a hand-off that reported success is unconfirmed; an interrupted one did not happen. */
const notFound = (row: MessageRow, p: Pending): Verdict =>
  p.recovering
    ? { s: { status: 'failed', reason: 'interrupted', billedSegments: 0 }, handedOff: false }
    : { s: { status: 'sent', reason: 'unconfirmed', billedSegments: row.segments }, handedOff: true };

/** What one look at the SMS store says about a pending message; undefined: look again later. */
export function verdict(
  row: MessageRow,
  p: Pending,
  result: Awaited<ReturnType<typeof listSms>>,
  claimed: Set<number>,
  tz: string,
  expired: boolean,
): Verdict | undefined {
  if (!result.ok) {
    // A store that cannot be read now (missing, no permission) will not be readable in a
    // minute either; a hang or an odd answer may be passing.
    return result.failure === 'not_found' || result.failure === 'permission_denied' || expired
      ? notFound(row, p)
      : undefined;
  }
  const found = match(row, result.entries, claimed, tz);
  if (found?.type === 'sent') {
    claimed.add(found.id);
    return { s: { status: 'sent', reason: null, billedSegments: row.segments, smsStoreId: found.id }, handedOff: true };
  }
  if (found?.type === 'failed') {
    claimed.add(found.id);
    return {
      s: { status: 'failed', reason: 'not_in_sent_box', billedSegments: 0, smsStoreId: found.id },
      handedOff: true,
    };
  }
  if (!expired) return undefined;
  // Still in the phone's outbox: Android has it and sends it.
  if (!found) return notFound(row, p);
  claimed.add(found.id);
  return {
    s: { status: 'sent', reason: 'unconfirmed', billedSegments: row.segments, smsStoreId: found.id },
    handedOff: true,
  };
}
