// The e-mail intake's series on /metrics: mails accepted, and refusals by reason (the reasons
// of status/smtp-check.ts), counted since the gateway started. Without the intake (SMTP off)
// the accepted counter stays 0 and the refusals have no sample.
import type { Registry } from 'prom-client';
import type { PromClient } from './metrics-series.js';
import type { SmtpHealth } from './smtp-check.js';

export function smtpSeries({ Counter }: PromClient, registry: Registry, read: () => Readonly<SmtpHealth> | null): void {
  const registers = [registry];
  new Counter({
    name: 'sms_gateway_email_mails_accepted_total',
    help: "Mails the e-mail intake answered 250 since the gateway started (a device's repeat of a mail included).",
    registers,
    collect() {
      this.reset();
      this.inc(read()?.mailsAccepted ?? 0);
    },
  });
  new Counter({
    name: 'sms_gateway_email_refusals_total',
    help: 'Mails or their steps (connection, AUTH, recipient) the e-mail intake refused since the start, by reason.',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(read()?.refused ?? {})) this.inc({ reason }, n);
    },
  });
}
