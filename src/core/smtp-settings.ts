// The e-mail intake's part of the configuration (docs/email.md): SMS_GATEWAY_SMTP_PORT turns
// it on (unset: off, no socket, no SMTP module loaded), a certificate and key offer STARTTLS,
// SMS_GATEWAY_SMTP_TRUSTED lists the addresses and CIDRs that may send without AUTH, and
// SMS_GATEWAY_SMTP_SEGMENTS caps the length of each mail's SMS.
import ipaddr from 'ipaddr.js';
import * as z from 'zod';
import { PORT } from './runtime.js';

export interface SmtpSettings {
  port: number;
  /** Paths of the PEM certificate and key: STARTTLS is offered when both are set. */
  tls: { certPath: string; keyPath: string } | undefined;
  /** Addresses and CIDRs (as written, each valid) that may send without AUTH. */
  trusted: string[];
  /** The most segments a mail's SMS takes. */
  segments: number;
  /** The address the intake binds; unset: every interface, as the HTTP server does (tests bind 127.0.0.1). */
  host?: string | undefined;
  /** How long one SMTP session may last in all, and may stay silent (ms; tests shorten them). */
  sessionMs?: number | undefined;
  idleMs?: number | undefined;
}

/** The default and the most segments of a mail's SMS. */
export const SMTP_DEFAULT_SEGMENTS = 2;
export const SMTP_MAX_SEGMENTS = 10;

const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** One address or CIDR, IPv4 or IPv6. */
export function isAddressOrCidr(text: string): boolean {
  return ipaddr.isValid(text) || ipaddr.isValidCIDR(text);
}

const trustedList = z
  .string()
  .transform((raw) =>
    raw
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== ''),
  )
  .superRefine((items, ctx) => {
    const bad = items.find((s) => !isAddressOrCidr(s));
    if (bad !== undefined)
      ctx.addIssue({ code: 'custom', message: `"${bad}" is neither an IP address nor a CIDR (like 192.168.1.0/24)` });
  });

export const SmtpEnvShape = {
  SMS_GATEWAY_SMTP_PORT: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\s*\d+\s*$/, 'must be a port number from 1024 to 65535')
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(1024, 'must be at least 1024 (Termux cannot bind the ports below; 2525 is usual)')
          .max(65535, 'must be at most 65535')
          .refine((p) => p !== PORT, `must not be ${PORT}, the HTTP port`),
      )
      .optional(),
  ),
  SMS_GATEWAY_SMTP_TLS_CERT: z.preprocess(blank, z.string().trim().optional()),
  SMS_GATEWAY_SMTP_TLS_KEY: z.preprocess(blank, z.string().trim().optional()),
  SMS_GATEWAY_SMTP_TRUSTED: z.preprocess(blank, trustedList.default([])),
  SMS_GATEWAY_SMTP_SEGMENTS: z.preprocess(
    blank,
    z
      .string()
      .regex(/^\s*\d+\s*$/, `must be a whole number from 1 to ${SMTP_MAX_SEGMENTS}`)
      .transform(Number)
      .pipe(
        z.number().int().min(1, 'must be at least 1').max(SMTP_MAX_SEGMENTS, `must be at most ${SMTP_MAX_SEGMENTS}`),
      )
      .default(SMTP_DEFAULT_SEGMENTS),
  ),
};

type SmtpEnv = z.output<z.ZodObject<typeof SmtpEnvShape>>;

/** The settings, or undefined when SMS_GATEWAY_SMTP_PORT is not set; a certificate without a key is a problem. */
export function smtpSettings(e: SmtpEnv): SmtpSettings | undefined | { problem: string } {
  if (e.SMS_GATEWAY_SMTP_PORT === undefined) return undefined;
  const cert = e.SMS_GATEWAY_SMTP_TLS_CERT;
  const key = e.SMS_GATEWAY_SMTP_TLS_KEY;
  if ((cert === undefined) !== (key === undefined)) {
    return {
      problem: 'SMS_GATEWAY_SMTP_TLS_CERT and SMS_GATEWAY_SMTP_TLS_KEY go together: set both (STARTTLS) or neither',
    };
  }
  return {
    port: e.SMS_GATEWAY_SMTP_PORT,
    tls: cert !== undefined && key !== undefined ? { certPath: cert, keyPath: key } : undefined,
    trusted: e.SMS_GATEWAY_SMTP_TRUSTED,
    segments: e.SMS_GATEWAY_SMTP_SEGMENTS,
  };
}
