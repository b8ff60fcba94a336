// Quiet hours (SMS_GATEWAY_QUIET_HOURS=HH:MM-HH:MM, the phone's local time, may span
// midnight): queued messages are not handed off inside the window. Pure: parsing, and
// "how long until the window ends" for an instant in a time zone.

export interface QuietHours {
  /** Minutes after local midnight; start === end is refused at parsing. */
  startMinute: number;
  endMinute: number;
  /** As configured, for diagnostics: "22:00-07:00". */
  text: string;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses "HH:MM-HH:MM"; returns an error message (naming the fix) for anything else. */
export function parseQuietHours(raw: string): QuietHours | string {
  const parts = raw.trim().split('-');
  const [from, to] = parts.map((p) => p.trim());
  const a = from === undefined ? null : HHMM.exec(from);
  const b = to === undefined ? null : HHMM.exec(to);
  if (parts.length !== 2 || !a || !b) return 'must be HH:MM-HH:MM in 24-hour time, e.g. 22:00-07:00';
  const startMinute = Number(a[1]) * 60 + Number(a[2]);
  const endMinute = Number(b[1]) * 60 + Number(b[2]);
  if (startMinute === endMinute) return 'start and end must differ (unset it for no quiet hours)';
  return { startMinute, endMinute, text: `${from}-${to}` };
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Local hour, minute and second of an instant in a time zone. */
function localTime(ms: number, timeZone: string): { minute: number; second: number; milli: number } {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' });
    if (formatters.size < 50) formatters.set(timeZone, fmt);
  }
  const parts = fmt.formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minute: get('hour') * 60 + get('minute'), second: get('second'), milli: ((ms % 1000) + 1000) % 1000 };
}

/**
 * Milliseconds from `ms` until the quiet window ends, or 0 when `ms` is outside it. Counted
 * in local minutes; across a daylight-saving change the answer may be an hour off, which
 * only moves the next look at the queue (the lane asks again when it wakes).
 */
export function quietRemainingMs(q: QuietHours | undefined, ms: number, timeZone: string): number {
  if (!q) return 0;
  const { minute, second, milli } = localTime(ms, timeZone);
  const inside = q.startMinute < q.endMinute ? minute >= q.startMinute && minute < q.endMinute : minute >= q.startMinute || minute < q.endMinute;
  if (!inside) return 0;
  const minutesLeft = (q.endMinute - minute + 1440) % 1440;
  return minutesLeft * 60_000 - second * 1000 - milli;
}
