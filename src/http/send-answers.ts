// The send paths' outcomes (sms/outcomes.ts) as HTTP answers: handed off is 200 with the
// send result, failed is send_failed (502) with the reason and the message's id, accepted
// is 202 with the records; an answer stored by an earlier version is sent as it was.
import { errorBody } from '../core/errors.js';
import type { QueueOutcome, SendOutcome } from '../sms/outcomes.js';
import { segmentWarning } from '../sms/outcomes.js';
import { failureError } from '../sms/reasons.js';
import { STATUS_OF } from './error-status.js';
import type * as z from 'zod';
import type { QueuedResponseSchema, SendResultSchema } from './schemas.js';

export type SendResult = z.infer<typeof SendResultSchema>;

export interface Answer {
  status: number;
  body: unknown;
}

export function sendAnswer(outcome: SendOutcome): Answer {
  switch (outcome.kind) {
    case 'earlier_answer':
      return outcome.answer;
    case 'failed': {
      const err = failureError(outcome.reason, outcome.detail).with({ messageId: outcome.messageId });
      return { status: STATUS_OF.send_failed, body: errorBody(err) };
    }
    case 'handed_off': {
      const { messageId, mode, segments, simSlot, encoding } = outcome;
      const body: SendResult = {
        success: true,
        mode,
        smsSent: true,
        messageId,
        status: 'queued',
        segments,
        simSlot,
        encoding,
      };
      const warning = segmentWarning(segments, encoding);
      if (warning) body.warning = warning;
      return { status: 200, body };
    }
  }
}

export function queueAnswer(outcome: QueueOutcome): Answer {
  if (outcome.kind === 'earlier_answer') return outcome.answer;
  const body: z.infer<typeof QueuedResponseSchema> = { success: true, data: outcome.records };
  return { status: 202, body };
}
