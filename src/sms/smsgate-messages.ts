// SMSGate's messages: one SMSGate message id for the records of its recipients, queued through the
// queue's intake like POST /api/messages (origin smsgate: validation, pacing, quiet hours, opt-out),
// the id kept with the records in the transaction that queues them. An id already used is refused
// (taken), also while the first request with it is still being handled, so a retried request never
// queues twice; the id is also the records' Idempotency-Key in the gateway's own space. Cancelling
// ends every recipient not yet handed off.
import { gatewayError, GatewayError } from '../core/errors.js';
import type { Logger } from 'pino';
import { newNanoId } from '../core/ids.js';
import type { MessageRow } from '../store/messages.js';
import type { SmsgateMessageStore, SmsgatePageQuery } from '../store/smsgate-messages.js';
import type { Enqueue } from './enqueue.js';
import type { QueueRequest } from './queue-request.js';
import { messageState, recipientState } from './smsgate-state.js';

export interface SmsgateMessagesDeps {
  enqueue: Pick<Enqueue, 'accept' | 'cancel'>;
  ids: SmsgateMessageStore;
  logger?: Logger | undefined;
  newId?: () => string;
}

/** One SMSGate message: its id and its records in recipient order. */
export interface SmsgateMessage {
  id: string;
  rows: MessageRow[];
}

export type SmsgateSendResult = ({ kind: 'queued' } & SmsgateMessage) | { kind: 'taken'; id: string };

const isConstraint = (err: unknown) => String((err as { code?: unknown }).code).startsWith('SQLITE_CONSTRAINT');

export function createSmsgateMessages(deps: SmsgateMessagesDeps) {
  const { enqueue, ids } = deps;
  const newId = deps.newId ?? newNanoId;
  /** Ids whose first request is being handled (its SIM count may be read first). */
  const inFlight = new Set<string>();

  const existing = (id: string): MessageRow[] => {
    const rows = ids.members(id);
    if (rows.length === 0) throw gatewayError('not_found', 'message', id.length > 64 ? undefined : id);
    return rows;
  };

  return {
    /** Queues `req` as SMSGate message `id` (one made when undefined); `taken` when the id is known. */
    async send(req: QueueRequest, id: string | undefined, sourceIp: string): Promise<SmsgateSendResult> {
      const smsgateId = id ?? newId();
      if (inFlight.has(smsgateId) || ids.taken(smsgateId)) return { kind: 'taken', id: smsgateId };
      inFlight.add(smsgateId);
      try {
        const link = (rows: readonly MessageRow[]) =>
          ids.link(
            smsgateId,
            rows.map((r) => r.id),
            rows[0]?.createdAt ?? 0,
          );
        await enqueue.accept(req, { origin: 'smsgate', sourceIp, ownKey: `smsgate:${smsgateId}` }, link);
      } catch (err) {
        if (isConstraint(err) && ids.taken(smsgateId)) return { kind: 'taken', id: smsgateId };
        throw err;
      } finally {
        inFlight.delete(smsgateId);
      }
      return { kind: 'queued', id: smsgateId, rows: ids.members(smsgateId) };
    },
    /** The message's records; not_found when the id is unknown (or gone from the history). */
    get: (id: string): SmsgateMessage => ({ id, rows: existing(id) }),
    /**
     * Cancels every recipient whose hand-off has not started. Already cancelled: as it is. Nothing
     * waiting (handed off, sent, failed): invalid_request, as SMSGate refuses a message not Pending.
     */
    cancel(id: string): SmsgateMessage {
      const rows = existing(id);
      const state = messageState(rows.map((r) => recipientState(r).state));
      if (state === 'Cancelled') return { id, rows };
      if (state !== 'Pending') {
        throw gatewayError('invalid_request', 'problem', `message ${id} is ${state}, not Pending: nothing to cancel.`);
      }
      for (const row of rows) {
        if (recipientState(row).state !== 'Pending') continue;
        try {
          enqueue.cancel(row.id);
        } catch (err) {
          // Its hand-off started meanwhile: it goes on.
          if (!(err instanceof GatewayError && err.code === 'not_cancellable')) throw err;
        }
      }
      deps.logger?.info({ smsgateId: id }, 'SMSGate message cancelled');
      return { id, rows: existing(id) };
    },
    /** A page of messages, newest first, and how many match in all. */
    list(q: SmsgatePageQuery): { messages: SmsgateMessage[]; total: number } {
      const page = ids.page(q);
      return { messages: page.ids.map((id) => ({ id, rows: ids.members(id) })), total: page.total };
    },
    /** The SMSGate message id of a record queued through these routes, or undefined. */
    smsgateIdOfMessage: (messageId: string): string | undefined => ids.smsgateIdOfMessage(messageId),
  };
}

export type SmsgateMessages = ReturnType<typeof createSmsgateMessages>;
