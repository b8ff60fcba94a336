// termux-sms-list through the one runner: the phone's SMS store (inbox and sent box).
// Each element has _id, threadid, type, read, address (older versions: number), sender
// (only when a contact matches), received (local time "yyyy-MM-dd HH:mm:ss", no zone) and
// body. The newest N are printed oldest first (newest last). Termux:API formats `received`
// with SimpleDateFormat in the phone's locale, so its digits are the locale's: Arabic-Indic
// (Arabic), Extended Arabic-Indic (Persian), Devanagari, Bengali...: any Unicode decimal
// digit is read as its ASCII digit (asciiDigits).
import { runCommand, type RunResult } from './termux.js';

export type SmsBox = 'all' | 'inbox' | 'sent' | 'draft' | 'outbox';

export interface SmsEntry {
  id: number;
  threadId: number | null;
  /** inbox, sent, draft, failed, outbox, or '' (queued and others). */
  type: string;
  address: string | null;
  sender: string | null;
  /** As printed: phone-local "yyyy-MM-dd HH:mm:ss". */
  received: string | null;
  body: string;
  read: boolean | null;
}

export type SmsListResult =
  | { ok: true; entries: SmsEntry[] }
  | { ok: false; failure: Exclude<RunResult, { ok: true }>['failure']; detail: string };

export function parseSmsList(json: unknown): SmsEntry[] | undefined {
  if (!Array.isArray(json)) return undefined;
  const out: SmsEntry[] = [];
  for (const raw of json) {
    if (!raw || typeof raw !== 'object') continue;
    const e = raw as Record<string, unknown>;
    const id = e._id;
    if (typeof id !== 'number' || !Number.isInteger(id)) continue; // too old a Termux:API: no _id
    const address = typeof e.address === 'string' ? e.address : typeof e.number === 'string' ? e.number : null;
    out.push({
      id,
      threadId: typeof e.threadid === 'number' ? e.threadid : null,
      type: typeof e.type === 'string' ? e.type : '',
      address,
      sender: typeof e.sender === 'string' ? e.sender : null,
      received: typeof e.received === 'string' ? e.received : null,
      body: typeof e.body === 'string' ? e.body : '',
      read: typeof e.read === 'boolean' ? e.read : null,
    });
  }
  return out;
}

export async function listSms(opts: {
  box: SmsBox;
  limit: number;
  offset?: number;
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
}): Promise<SmsListResult> {
  const args = ['-t', opts.box, '-l', String(opts.limit), '-o', String(opts.offset ?? 0)];
  const r = await runCommand('termux-sms-list', args, {
    timeoutMs: opts.timeoutMs,
    expect: 'json',
    maxOutputBytes: 4 * 1024 * 1024,
    ...(opts.env ? { env: opts.env } : {}),
  });
  if (!r.ok) return { ok: false, failure: r.failure, detail: r.detail };
  const entries = parseSmsList(r.json);
  if (!entries) return { ok: false, failure: 'api_error', detail: 'termux-sms-list did not print a list' };
  return { ok: true, entries };
}

/** Digits only, for comparing numbers stored in different formats (+49 151 ..., 0151...). */
export function sameNumber(a: string | null, b: string): boolean {
  if (!a) return false;
  const x = a.replace(/\D/g, '');
  const y = b.replace(/\D/g, '');
  if (x === '' || y === '') return false;
  if (x === y) return true;
  // National vs international forms share their last digits.
  const tail = Math.min(x.length, y.length, 9);
  return tail >= 7 && x.slice(-tail) === y.slice(-tail);
}

/** The wall-clock fields of an instant in a time zone, as numbers. */
function zoneFields(ms: number, timeZone: string) {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const p = Object.fromEntries(fmt.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { year: +p.year!, month: +p.month!, day: +p.day!, hour: +p.hour!, minute: +p.minute!, second: +p.second! };
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * A decimal digit's value: Unicode assigns them in runs of ten, 0 to 9, so it is the distance from its run's start, mod
 * 10.
 */
function digitValue(codePoint: number): number {
  let start = codePoint;
  while (start > 0 && DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (codePoint - start) % 10;
}

/**
 * Every Unicode decimal digit (٣, ۳, ३, ৩, ...) as its ASCII digit; invisible format marks dropped; the rest as it is.
 */
export function asciiDigits(text: string): string {
  return text
    .replace(/\p{Cf}/gu, '')
    .replace(/\p{Nd}/gu, (d) => (d >= '0' && d <= '9' ? d : String(digitValue(d.codePointAt(0)!))));
}

/** Phone-local "yyyy-MM-dd HH:mm:ss" (in any decimal digits) in a time zone -> epoch ms (null if unreadable). */
export function localTimeToMs(text: string | null, timeZone: string): number | null {
  const m = text ? /^(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)$/.exec(asciiDigits(text)) : null;
  if (!m) return null;
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!);
  // The zone's offset at that moment: format the UTC guess in the zone and compare.
  const f = zoneFields(asUtc, timeZone);
  const shown = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - (shown - asUtc);
}

/** An instant as termux-sms-list prints it: phone-local "yyyy-MM-dd HH:mm:ss" (the inverse of localTimeToMs). */
export function localTimeText(ms: number, timeZone: string): string {
  const f = zoneFields(ms, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${f.year}-${two(f.month)}-${two(f.day)} ${two(f.hour)}:${two(f.minute)}:${two(f.second)}`;
}
