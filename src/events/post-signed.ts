// One signed POST of a webhook body with a timeout, never throwing: Standard Webhooks headers
// (signing.ts) for a native target, X-Timestamp and X-Signature (smsgate-signing.ts) for an SMSGate
// registration. A redirect is not followed; the answer's body is not read.
import type { Head } from '../store/outbox.js';
import { webhookHeaders } from './signing.js';
import { smsgateHeaders } from './smsgate-signing.js';

export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  ok: boolean;
  status: number | null;
  error: string | null;
}

/** One signed POST with a timeout; never throws. */
export async function postSigned(
  url: string,
  id: string,
  body: string,
  secret: string,
  nowMs: number,
  userAgent: string,
  timeoutMs: number = DELIVERY_TIMEOUT_MS,
  dialect: Head['dialect'] = 'native',
): Promise<PostResult> {
  const seconds = Math.floor(nowMs / 1000);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers:
        dialect === 'smsgate'
          ? smsgateHeaders(secret, seconds, body, userAgent)
          : webhookHeaders(secret, id, seconds, body, userAgent),
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    await res.body?.cancel().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return { ok, status: res.status, error: ok ? null : `HTTP ${res.status}` };
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: string } };
    const error =
      e.name === 'TimeoutError'
        ? `no answer within ${timeoutMs / 1000} s`
        : `cannot connect${e.cause?.code ? ` (${e.cause.code})` : ''}`;
    return { ok: false, status: null, error };
  }
}
