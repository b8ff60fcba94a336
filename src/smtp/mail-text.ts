// A mail's SMS: "<subject>: <body>" from the parsed mail (mailparser has decoded the
// transfer encodings and charsets, dropped the attachments, and turned an HTML-only body into
// its text). The signature (from a line "-- " on, RFC 3676) is left out; what remains is
// shortened to the configured segments as the alert receivers shorten (sms/short-text.ts).
// Bytes no charset could decode (an 8-bit body that declares none and is not UTF-8) show as
// "?" (GSM-7), not U+FFFD. A mail with neither a subject nor a body has no SMS ('').
import { shortText, tidy } from '../sms/short-text.js';

export interface ParsedMail {
  subject?: string | undefined;
  text?: string | undefined;
}

/** The most body read before shortening: more than any SMS of 10 segments can show, by far. */
const BODY_READ_MAX = 20_000;

/** The body before its signature: everything above the first line that is "-- " (or "--"). */
export function withoutSignature(body: string): string {
  const m = /^-- ?\r?$/m.exec(body);
  return m ? body.slice(0, m.index) : body;
}

export function mailText(mail: ParsedMail, segments: number): string {
  const subject = tidy(mail.subject);
  const body = tidy(withoutSignature((mail.text ?? '').slice(0, BODY_READ_MAX)));
  const joined = subject !== '' && body !== '' ? `${subject}: ${body}` : subject || body;
  const text = joined.replaceAll('\uFFFD', '?');
  return text === '' ? '' : shortText(text, segments);
}
