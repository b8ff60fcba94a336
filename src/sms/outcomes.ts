// The synchronous send's answers, built from the record: 200 with the send result after a
// hand-off, 502 send_failed with the reason and what to do. Used for the first answer and
// for an Idempotency-Key replay alike, so both say the same.
import { ApiError } from '../core/api-error.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Encoding, Reason } from '../store/message-record.js';
import type { MessageRow } from '../store/messages.js';
import { failureMessage } from './reasons.js';

export interface SendResult {
  success: true;
  mode: RuntimeInfo['mode'];
  smsSent: true;
  messageId: string;
  status: 'queued';
  segments: number;
  simSlot: number;
  encoding: Encoding;
  warning?: string;
}

export interface SendOutcome {
  statusCode: number;
  body: unknown;
}

export function segmentWarning(segments: number, encoding: Encoding): string | undefined {
  return segments > 1
    ? `Message is ${segments} segments long (${encoding}); it is sent as a multipart SMS and billed as ${segments}.`
    : undefined;
}

export function resultBody(row: MessageRow, mode: RuntimeInfo['mode']): SendResult {
  const body: SendResult = {
    success: true,
    mode,
    smsSent: true,
    messageId: row.id,
    status: 'queued',
    segments: row.segments,
    simSlot: row.simSlot,
    encoding: row.encoding,
  };
  const warning = segmentWarning(row.segments, row.encoding);
  if (warning) body.warning = warning;
  return body;
}

export function failureOutcome(row: MessageRow, reason: Reason, detail?: string): SendOutcome {
  return {
    statusCode: 502,
    body: new ApiError(502, 'send_failed', failureMessage(reason, detail), { messageId: row.id }).body(),
  };
}
