// What a send request came to, as the domain sees it (no transport): the synchronous send
// was handed off or failed (with the reason), a queued request was accepted (its records).
// The same outcome answers the first request and every Idempotency-Key replay: it is
// stored with the message (response_body), and http/ renders it. An answer stored by an
// earlier version (response_status set) is replayed exactly as it was sent.
import type { RuntimeInfo } from '../core/runtime.js';
import type { Encoding, MessageRecord, Reason } from '../store/message-record.js';
import type { MessageRow } from '../store/messages.js';

/** The synchronous send reached the phone (or, simulated, the simulated sender). */
export interface HandedOffOutcome {
  kind: 'handed_off';
  messageId: string;
  mode: RuntimeInfo['mode'];
  segments: number;
  simSlot: number;
  encoding: Encoding;
}

/** The synchronous send's hand-off failed: nothing sent (or, after a timeout, unknown). */
export interface FailedOutcome {
  kind: 'failed';
  messageId: string;
  reason: Reason;
  detail?: string;
}

/** A queued request: one record per recipient, as they were when committed. */
export interface AcceptedOutcome {
  kind: 'accepted';
  records: MessageRecord[];
}

/** An answer stored by an earlier version as it was sent: replayed unchanged. */
export interface EarlierAnswer {
  kind: 'earlier_answer';
  answer: { status: number; body: unknown };
}

export type SendOutcome = HandedOffOutcome | FailedOutcome | EarlierAnswer;
export type QueueOutcome = AcceptedOutcome | EarlierAnswer;

export function handedOffOutcome(row: MessageRow, mode: RuntimeInfo['mode']): HandedOffOutcome {
  return {
    kind: 'handed_off',
    messageId: row.id,
    mode,
    segments: row.segments,
    simSlot: row.simSlot,
    encoding: row.encoding,
  };
}

export function failedOutcome(row: MessageRow, reason: Reason, detail?: string): FailedOutcome {
  return detail === undefined
    ? { kind: 'failed', messageId: row.id, reason }
    : { kind: 'failed', messageId: row.id, reason, detail };
}

/** The outcome stored with a message, if any: an old stored answer, or a stored outcome. */
export function storedOutcome<O extends SendOutcome | QueueOutcome>(row: MessageRow): O | EarlierAnswer | undefined {
  if (row.responseBody === null) return undefined;
  const body: unknown = JSON.parse(row.responseBody);
  if (row.responseStatus !== null) return { kind: 'earlier_answer', answer: { status: row.responseStatus, body } };
  return body as O;
}

export function segmentWarning(segments: number, encoding: Encoding): string | undefined {
  return segments > 1
    ? `Message is ${segments} segments long (${encoding}); it is sent as a multipart SMS and billed as ${segments}.`
    : undefined;
}
