// SMSGate's webhook signature, as its app signs (and its users' receivers check): X-Timestamp is
// the attempt's Unix time in seconds, X-Signature the lowercase hex HMAC-SHA256 of the raw body
// followed by that timestamp, keyed with the signing key's text (its UTF-8 bytes). The signing
// key is the gateway's webhook secret, as GET /settings shows it (webhooks.signing_key).
import { createHmac } from 'node:crypto';

export function smsgateSignature(signingKey: string, body: string, timestampSeconds: number): string {
  return createHmac('sha256', Buffer.from(signingKey, 'utf8')).update(`${body}${timestampSeconds}`).digest('hex');
}

/** The headers of one attempt: the envelope's id stays in the body, the timestamp is the attempt's. */
export function smsgateHeaders(signingKey: string, timestampSeconds: number, body: string, userAgent: string) {
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'x-timestamp': String(timestampSeconds),
    'x-signature': smsgateSignature(signingKey, body, timestampSeconds),
  };
}
