// Webhook signing per the Standard Webhooks specification: headers webhook-id,
// webhook-timestamp (Unix seconds) and webhook-signature "v1,<base64 HMAC-SHA256 of
// '<id>.<timestamp>.<raw body>'>", keyed with the base64 bytes after "whsec_".
import { createHmac, randomBytes } from 'node:crypto';
import { createSecretFile, type SecretFile } from '../core/keys.js';

export const WEBHOOK_SECRET_PATTERN = /^whsec_[A-Za-z0-9+/]{43}=$/;

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

export function createWebhookSecretFile(home: string): SecretFile {
  return createSecretFile({
    home,
    name: 'webhook-secret',
    generate: generateWebhookSecret,
    pattern: WEBHOOK_SECRET_PATTERN,
    rotateHint: 'sms-gateway webhook rotate',
  });
}

export function sign(secret: string, id: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const mac = createHmac('sha256', key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** The headers of one delivery attempt: the id stays, the timestamp is the attempt's. */
export function webhookHeaders(secret: string, id: string, timestampSeconds: number, body: string, userAgent: string) {
  return {
    'content-type': 'application/json',
    'user-agent': userAgent,
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': sign(secret, id, timestampSeconds, body),
  };
}
