// A message row as the store reads it (every column, internal ones included), the shape
// of a new one, and the mapping to the record clients see. One place for the column list.
import type { Encoding, MessageRecord, MessageStatus, Origin, Reason } from './message-record.js';
import { isoOrNull as iso } from '../core/clock.js';
import { tagsOf, type Tags } from './message-tags.js';

export interface MessageRow {
  id: string;
  to: string;
  sendTo: string;
  body: string;
  segments: number;
  billedSegments: number;
  encoding: Encoding;
  simSlot: number;
  status: MessageStatus;
  reason: Reason | null;
  sourceIp: string;
  /** Where it came from (store/message-record.ts ORIGINS). */
  origin: Origin;
  createdAt: number;
  updatedAt: number;
  statsDay: string;
  handoffStartedAt: number | null;
  handedOffAt: number | null;
  idempotencyKey: string | null;
  requestHash: string | null;
  responseStatus: number | null;
  responseBody: string | null;
  smsStoreId: number | null;
  /** 'sync' (POST /api/sms/send) or 'queue' (POST /api/messages). */
  via: 'sync' | 'queue';
  sendAt: number | null;
  expiresAt: number | null;
  /** sendAt, else createdAt: the queue's order. */
  dueAt: number;
  /** The tags as stored (JSON), NULL when none (store/message-tags.ts). */
  tags: string | null;
}

export type NewMessage = Pick<
  MessageRow,
  'id' | 'to' | 'sendTo' | 'body' | 'segments' | 'encoding' | 'simSlot' | 'sourceIp' | 'createdAt' | 'statsDay' | 'idempotencyKey' | 'requestHash'
> &
  Partial<Pick<MessageRow, 'via' | 'sendAt' | 'expiresAt' | 'origin'>> & { tags?: Tags | undefined };

export const COLUMNS = `
  id, to_number AS "to", send_to AS sendTo, body, segments, billed_segments AS billedSegments,
  encoding, sim_slot AS simSlot, status, reason, source_ip AS sourceIp, created_at AS createdAt,
  updated_at AS updatedAt, stats_day AS statsDay, handoff_started_at AS handoffStartedAt,
  handed_off_at AS handedOffAt, idempotency_key AS idempotencyKey, request_hash AS requestHash,
  response_status AS responseStatus, response_body AS responseBody, sms_store_id AS smsStoreId,
  via, send_at AS sendAt, expires_at AS expiresAt, due_at AS dueAt, tags, origin`;

/** A row as clients see it (the record of store/message-record.ts). */
export function toMessageRecord(row: MessageRow): MessageRecord {
  return {
    id: row.id,
    to: row.to,
    body: row.body,
    segments: row.segments,
    billedSegments: row.billedSegments,
    status: row.status,
    reason: row.reason,
    sourceIp: row.sourceIp,
    origin: row.origin,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
    encoding: row.encoding,
    simSlot: row.simSlot,
    sendAt: iso(row.sendAt),
    expiresAt: iso(row.expiresAt),
    tags: tagsOf(row.tags),
  };
}
