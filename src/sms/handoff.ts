// The hand-off vocabulary (CONTRIBUTING's glossary): a hand-off gives one SMS to the phone
// (termux-sms-send, or the simulated sender), once. The request a sender is given, the
// phone's answer, and the finished hand-off the lane reports: the message, the answer and
// when it came. Types only, shared by the lane, the senders, the settler and its listeners.
import type { ProcessGroup } from '../core/ids.js';
import type { MessageRow } from '../store/messages.js';
import type { Reason } from '../store/message-record.js';

/** What a sender is asked to hand to the phone. */
export interface HandoffRequest {
  number: string;
  text: string;
  /** 1-based, as in the API. */
  simSlot: number;
}

/** The phone's answer to one hand-off. */
export type HandoffResult = { ok: true } | { ok: false; reason: Reason; detail: string };

export interface HandoffHooks {
  /** The hand-off's process group, as soon as it runs (recorded so a next start can end it). */
  onStarted?(group: ProcessGroup): void;
}

/** A hand-off the lane finished: the message, the phone's answer and when it came. */
export interface FinishedHandoff {
  row: MessageRow;
  result: HandoffResult;
  at: number;
  /** The sender threw (a bug, not a phone answer): recorded as termux_api_error, answered 500. */
  error?: unknown;
}
