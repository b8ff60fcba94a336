// Send validation after the zod schema has checked the shape: a message that is not
// empty, has a visible character and is well-formed, a recipient that normalizes, a SIM
// slot the phone has, and a length that fits the per-minute send budget. Every refusal is
// a GatewayError (invalid_request or message_too_long). A request naming a slot past the
// first reads the phone's SIM count first when it is not fresh (knownSlots): a slot is never
// accepted on a count the phone was not asked for; a count the phone cannot tell refuses none.
import { gatewayError } from '../core/errors.js';
import { newMessageId } from '../core/ids.js';
import type { NewMessage } from '../store/messages.js';
import type { Tags } from '../store/message-record.js';
import type { Origin } from '../store/message-record.js';
import { normalizeRecipient } from './recipient.js';
import { countSegments, type SegmentInfo } from './segments.js';
import { BUDGET_SEGMENTS } from './pacing.js';
import { hasVisibleCharacter } from './visible-text.js';

export interface SendRequest {
  to: string;
  message: string;
  simSlot?: number | undefined;
  /** Checked by the route's schema (store/message-tags.ts). */
  tags?: Tags | undefined;
}

export interface ValidSend {
  /** The recipient as handed to the phone (separators removed). */
  number: string;
  simSlot: number;
  seg: SegmentInfo;
}

/**
 * The phone's SIM count (1-based slots 1..n are valid); null: the phone cannot tell, and no slot is refused on a guess.
 */
export interface SimCount {
  /** As last read and still fresh enough to show; never reads. */
  known: () => number | null;
  /** Read again when not fresh (one Termux:API call, shared by concurrent askers, bounded by its timeout). */
  read: () => Promise<number | null>;
}

export interface SimSlots {
  defaultSim: number;
  simCount: SimCount;
}

/** What validation knows of the slots: the default, and the count (read first when the slot needs it). */
export interface KnownSlots {
  defaultSim: number;
  simCount: number | null;
}

/** Slot 1 is on every phone with a SIM: only a later slot makes the phone tell its count. */
export async function knownSlots(simSlot: number | undefined, sims: SimSlots): Promise<KnownSlots> {
  const slot = simSlot ?? sims.defaultSim;
  const simCount = slot > 1 ? await sims.simCount.read() : sims.simCount.known();
  return { defaultSim: sims.defaultSim, simCount };
}

/** The slots as known now, reading nothing (the gateway's own messages, sent on the default slot). */
export function slotsAsKnown(sims: SimSlots): KnownSlots {
  return { defaultSim: sims.defaultSim, simCount: sims.simCount.known() };
}

export function validateSend(req: SendRequest, sims: KnownSlots): ValidSend {
  if (/^[\t\n\v\f\r ]*$/.test(req.message)) {
    throw gatewayError('invalid_request', 'messageEmpty');
  }
  // Termux:API trims the text as Java does (every character up to U+0020), and a text of
  // only invisible characters (NBSP, ZWSP, BOM, DEL, C1 controls, a lone accent...) would
  // go out as a blank SMS: one visible character is needed (visible-text.ts).
  if (!hasVisibleCharacter(req.message)) {
    throw gatewayError('invalid_request', 'messageInvisible');
  }
  if (!req.message.isWellFormed()) {
    throw gatewayError('invalid_request', 'messageSurrogate');
  }
  const recipient = normalizeRecipient(req.to);
  if (!recipient.ok) throw gatewayError('invalid_request', 'problem', `body.${recipient.message}.`);
  const simSlot = req.simSlot ?? sims.defaultSim;
  const simCount = sims.simCount;
  if (simCount !== null && simSlot > simCount) {
    const which =
      req.simSlot === undefined ? `the default SIM slot ${simSlot} (SMS_GATEWAY_DEFAULT_SIM)` : `simSlot ${simSlot}`;
    throw gatewayError('invalid_request', 'noSimSlot', which, simCount);
  }
  const seg = countSegments(req.message);
  if (seg.segments > BUDGET_SEGMENTS) {
    throw gatewayError('message_too_long', 'segments', seg.segments, seg.encoding, BUDGET_SEGMENTS);
  }
  return { number: recipient.number, simSlot, seg };
}

/**
 * Who asks an intake (the synchronous send, the queue) for a message: the door or automatic
 * answer it comes from (recorded as the message's origin), the caller's address, and either
 * the caller's Idempotency-Key or a key the gateway made for itself (`ownKey`: kept in a space
 * of its own, sms/idempotency.ts), if any.
 */
export interface IntakeContext {
  origin: Origin;
  sourceIp: string;
  idempotencyKey?: string | undefined;
  ownKey?: string | undefined;
}

/** The new record for a validated message (both paths): id, the normalized number, segments. */
export function newMessage(
  v: ValidSend,
  m: {
    to: string;
    message: string;
    sourceIp: string;
    origin: Origin;
    now: number;
    statsDay: string;
    idempotencyKey: string | null;
    requestHash: string | null;
    tags?: Tags | undefined;
  },
): NewMessage {
  return {
    id: newMessageId(m.now),
    to: m.to,
    sendTo: v.number,
    body: m.message,
    segments: v.seg.segments,
    encoding: v.seg.encoding,
    simSlot: v.simSlot,
    sourceIp: m.sourceIp,
    origin: m.origin,
    createdAt: m.now,
    statsDay: m.statsDay,
    idempotencyKey: m.idempotencyKey,
    requestHash: m.requestHash,
    tags: m.tags,
  };
}
