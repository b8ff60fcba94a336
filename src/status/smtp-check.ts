// The diagnostics `smtp` check: the e-mail intake off, listening, or not listening, with
// what it took and refused since the start (the same counts /metrics shows). Not listening
// while on is `degraded`: the HTTP API, the queue and webhooks work without it.
import { check, type CheckOf } from './check.js';
import { SMTP_REFUSALS } from './checks-schema.js';
import { isoOrNull as iso } from '../core/clock.js';

export { SMTP_REFUSALS };
export type SmtpRefusal = (typeof SMTP_REFUSALS)[number];

export interface SmtpHealth {
  port: number;
  tls: boolean;
  trustedSenders: number;
  listening: boolean;
  since: number | null;
  lastError: string | null;
  /** Mails answered 250 (a device's repeat of one already queued included). */
  mailsAccepted: number;
  /** Of those, the repeats: their Message-ID had queued its SMS already. */
  mailsRepeated: number;
  refused: Record<SmtpRefusal, number>;
  lastRefusal: { reason: SmtpRefusal; at: number } | null;
}

/** An intake's health before it listens: nothing counted. */
export function newSmtpHealth(port: number, tls: boolean, trustedSenders: number): SmtpHealth {
  const refused = Object.fromEntries(SMTP_REFUSALS.map((r) => [r, 0])) as Record<SmtpRefusal, number>;
  return {
    port,
    tls,
    trustedSenders,
    listening: false,
    since: null,
    lastError: null,
    mailsAccepted: 0,
    mailsRepeated: 0,
    refused,
    lastRefusal: null,
  };
}

export function smtpCheck(health: Readonly<SmtpHealth> | null): CheckOf<'smtp'> {
  if (health === null) return check('ok', { enabled: false });
  const value = {
    enabled: true,
    port: health.port,
    starttls: health.tls,
    trustedSenders: health.trustedSenders,
    listening: health.listening,
    since: iso(health.since),
    lastError: health.lastError,
    mailsAccepted: health.mailsAccepted,
    mailsRepeated: health.mailsRepeated,
    refused: { ...health.refused },
    lastRefusal: health.lastRefusal ? { reason: health.lastRefusal.reason, at: iso(health.lastRefusal.at)! } : null,
  };
  if (health.listening || health.since === null) return check('ok', value);
  return check(
    'degraded',
    value,
    `The e-mail intake stopped listening on port ${health.port}${health.lastError ? ` (${health.lastError})` : ''}: ` +
      'devices cannot mail an SMS. Restart the gateway; HTTP sending is not affected.',
  );
}
