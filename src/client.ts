// A small typed client for the gateway's HTTP API, used by the command line and exported
// for LAN users (`import { createClient } from 'sms-gateway/client'`, or the client-only
// package `sms-gateway-client` that scripts/pack-client.mjs builds from this file). Sends carry an
// Idempotency-Key that stays the same across retries, so a retry after a lost answer
// never sends a second SMS. 429 answers, and 503 answers with a Retry-After (nothing was
// recorded), are retried after their Retry-After.
import { randomUUID } from 'node:crypto';
import type * as z from 'zod';
import type { PaginationSchema, SendResultSchema, StatsResponseSchema } from './http/schemas.js';
import type { MessageRecordSchema } from './store/message-record.js';
import type { HealthSchema } from './http/routes/health.js';
import type { InboxRecordSchema, WebhookTargetSchema, WebhookTestResultSchema } from './http/integration-schemas.js';

export interface SendInput {
  to: string;
  message: string;
  simSlot?: number;
  /**
   * At most 8 labels (keys [A-Za-z0-9_.-], 1 to 32 characters; values at most 64): kept with the message, returned in
   * its record and in a reply's inReplyTo.
   */
  tags?: Record<string, string>;
}

/** A queued request: one recipient or up to 100; sendAt/expiresAt as ISO 8601 with a zone, or Dates. */
export interface QueueInput {
  to: string | string[];
  message: string;
  simSlot?: number;
  sendAt?: string | Date;
  expiresAt?: string | Date;
  /** As SendInput's tags: kept with each queued record. */
  tags?: Record<string, string>;
}

/**
 * A search of the history or the inbox, all combined with the list's own filters: q, a number
 * (from its start when written with a leading +, anywhere otherwise) or a case-insensitive part
 * of the text (at most 100 characters, matched literally); since (inclusive) and until
 * (exclusive) as ISO 8601 with a zone, or Dates.
 */
export interface SearchInput {
  q?: string;
  since?: string | Date;
  until?: string | Date;
}

// The shapes are the server's own zod schemas (type-only imports: nothing of the server
// is loaded by a client; the client-only package spells them out). Every type a client
// method names is one of these aliases, so that package can replace each by its shape.
export type SendResult = z.infer<typeof SendResultSchema>;
export type MessageRecord = z.infer<typeof MessageRecordSchema>;
export type Stats = z.infer<typeof StatsResponseSchema>['data'];
export type Health = z.infer<typeof HealthSchema>;
export type MessageStatus = MessageRecord['status'];
export type Pagination = z.infer<typeof PaginationSchema>;
export type Page<T> = { data: T[]; pagination: Pagination };
export type InboxRecord = z.infer<typeof InboxRecordSchema>;
export type WebhookTarget = z.infer<typeof WebhookTargetSchema>;
export type WebhookTestResult = z.infer<typeof WebhookTestResultSchema>;

/**
 * A request to the gateway that did not succeed: the HTTP status and the gateway's code and
 * message, or status 0 and code `unreachable` when no answer came. (Named for the client's
 * side: the server's own refusal is core/errors.ts's GatewayError, another class.)
 */
export class GatewayRequestError extends Error {
  override name = 'GatewayRequestError';
  readonly status: number;
  readonly code: string;
  readonly retryAfterSeconds?: number;
  constructor(status: number, code: string, message: string, retryAfterSeconds?: number) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** @deprecated The former name of GatewayRequestError (the client package promised it); the same class. */
export const GatewayError = GatewayRequestError;
/** @deprecated The former name of GatewayRequestError. */
export type GatewayError = GatewayRequestError;

export interface ClientOptions {
  /** e.g. http://192.168.1.50:8080 */
  baseUrl: string;
  apiKey: string;
  /**
   * Retries after 429 or a 503 with Retry-After (waiting it out) and, for sends, after a lost connection. Default 3.
   */
  maxRetries?: number;
  /** The longest Retry-After the client waits out by itself, in seconds. Default 60. */
  maxWaitSeconds?: number;
  timeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A Date as ISO 8601; an invalid one as "Invalid Date", for the gateway to refuse naming the parameter (toISOString
 * would throw a RangeError).
 */
const dateText = (d: Date) => (Number.isNaN(d.getTime()) ? String(d) : d.toISOString());

/** `?name=value&...` of the defined values (a Date as ISO 8601), or nothing. */
function queryString(q: object): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(q))
    if (v !== undefined) params.set(k, v instanceof Date ? dateText(v) : typeof v === 'string' ? v : JSON.stringify(v));
  const qs = params.toString();
  return qs ? `?${qs}` : '';
}

/** The error an answer that was not a success stands for (a guard's 401/403 has a plain body). */
function answerError(status: number, json: Record<string, unknown>, retryAfter: number): GatewayRequestError {
  const error = json.error as { code?: string; message?: string } | string | undefined;
  if (typeof error === 'string')
    return new GatewayRequestError(status, status === 401 ? 'unauthorized' : 'forbidden', error);
  return new GatewayRequestError(
    status,
    error?.code ?? 'http_error',
    error?.message ?? `HTTP ${status}`,
    Number.isFinite(retryAfter) ? retryAfter : undefined,
  );
}

/** The client's defaults (ClientOptions says what each is). */
const DEFAULT_MAX_RETRIES = 3;
const DEFAULT_MAX_WAIT_SECONDS = 60;
const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * One request with the key: JSON in and out, retried after 429, a 503 with Retry-After and, when asked, a lost
 * connection.
 */
function createCaller(opts: ClientOptions) {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const maxRetries = opts.maxRetries ?? DEFAULT_MAX_RETRIES;
  const maxWait = opts.maxWaitSeconds ?? DEFAULT_MAX_WAIT_SECONDS;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  return async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
    retryOnNetworkError = false,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${opts.apiKey}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...headers,
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
        });
      } catch (err) {
        if (retryOnNetworkError && attempt < maxRetries) {
          await sleep(1000);
          continue;
        }
        const cause = (err as { cause?: { code?: string } }).cause?.code;
        throw new GatewayRequestError(
          0,
          'unreachable',
          `cannot reach the gateway at ${base}${cause ? ` (${cause})` : ''}`,
        );
      }
      const text = await res.text();
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(text) as Record<string, unknown>;
      } catch {
        // not JSON: described by answerError
      }
      if (res.ok) return json as T;
      const retryAfter = Number(res.headers.get('retry-after') ?? json.retryAfterSeconds);
      // 429 (rate), and 503 with Retry-After (sender_busy, queue_full: nothing was recorded).
      const retryable = res.status === 429 || (res.status === 503 && res.headers.has('retry-after'));
      if (retryable && attempt < maxRetries && Number.isFinite(retryAfter) && retryAfter <= maxWait) {
        await sleep(Math.max(1, retryAfter) * 1000);
        continue;
      }
      throw answerError(res.status, json, retryAfter);
    }
  };
}

export function createClient(opts: ClientOptions) {
  const call = createCaller(opts);
  /** A request whose answer carries its result in `data`. */
  const dataOf = async <T>(method: string, path: string, body?: unknown) =>
    (await call<{ data: T }>(method, path, body)).data;
  /** A POST with an Idempotency-Key (random by default) kept across retries, retried after a lost connection too. */
  const idempotentPost = <T>(path: string, body: unknown, idempotencyKey: string | undefined) =>
    call<T>('POST', path, body, { 'idempotency-key': idempotencyKey ?? randomUUID() }, true);
  return {
    health: () => call<Health>('GET', '/health'),
    /** Sends one SMS. The same idempotencyKey (random by default) is used for every retry. */
    send: (input: SendInput, options: { idempotencyKey?: string } = {}) =>
      idempotentPost<SendResult>('/api/sms/send', input, options.idempotencyKey),
    /**
     * Queues SMS for the gateway to send at its pace (202: one queued record per recipient).
     * The same idempotencyKey (random by default) is used for every retry.
     */
    queue: async (input: QueueInput, options: { idempotencyKey?: string } = {}) => {
      const body = {
        ...input,
        ...(input.sendAt instanceof Date ? { sendAt: input.sendAt.toISOString() } : {}),
        ...(input.expiresAt instanceof Date ? { expiresAt: input.expiresAt.toISOString() } : {}),
      };
      const res = await idempotentPost<{ data: MessageRecord[] }>('/api/messages', body, options.idempotencyKey);
      return res.data;
    },
    /** Cancels a queued message whose hand-off has not started (409 not_cancellable otherwise). */
    cancel: async (id: string) => dataOf<MessageRecord>('DELETE', `/api/messages/${encodeURIComponent(id)}`),
    /** The history, newest first: filtered by status and a tag (key:value), searched (q, since, until), paged. */
    messages: async (q: SearchInput & { limit?: number; offset?: number; status?: MessageStatus; tag?: string } = {}) =>
      call<Page<MessageRecord> & { success: true }>('GET', `/api/messages${queryString(q)}`),
    message: async (id: string) => dataOf<MessageRecord>('GET', `/api/messages/${encodeURIComponent(id)}`),
    stats: async () => dataOf<Stats>('GET', '/api/stats'),
    /**
     * Received SMS, newest first: from one sender, searched (q, since, until), paged (503 inbox_disabled while the
     * gateway does not read its inbox).
     */
    inbox: async (q: SearchInput & { limit?: number; offset?: number; from?: string } = {}) =>
      call<Page<InboxRecord> & { success: true }>('GET', `/api/inbox${queryString(q)}`),
    webhooks: async () => dataOf<WebhookTarget[]>('GET', '/api/webhooks'),
    /** Registers a webhook target (a URL already registered: its existing target). */
    addWebhook: async (url: string) => dataOf<WebhookTarget>('POST', '/api/webhooks', { url }),
    /** Removes a target registered over the API (409 webhook_from_environment for SMS_GATEWAY_WEBHOOK_URLS ones). */
    removeWebhook: async (id: string) => {
      await call<unknown>('DELETE', `/api/webhooks/${encodeURIComponent(id)}`);
    },
    /** Has the gateway send its test event to every target; one result per target. */
    testWebhooks: async () => dataOf<WebhookTestResult[]>('POST', '/api/webhooks/test'),
    /** GET any read endpoint's data (host info, diagnostics). */
    read: async <T>(path: string) => dataOf<T>('GET', path),
  };
}

export type GatewayClient = ReturnType<typeof createClient>;
