// Quiet hours (SMS_GATEWAY_QUIET_HOURS=HH:MM-HH:MM, the phone's local time, may span
// midnight): queued messages are not handed off inside the window. Pure: parsing, and
// "how long until the window ends" for an instant in a time zone.
// Each night's window is a stretch of real time, from the first instant the phone's local
// clock shows the start to the first instant it shows the end, computed in the zone's own
// rules across daylight saving: a local time that does not exist that night (02:59 when
// 02:00-03:00 is skipped) is reached at the first instant after the gap (03:00); a local
// time that comes twice (the hour repeated in autumn) is reached at its FIRST occurrence,
// and the second pass of that hour does not open the window again.

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

const DAY_MS = 86_400_000;

/** The local date and time of an instant in a zone, written as if it were UTC (ms). */
function localAsUtc(ms: number, timeZone: string): number {
  let fmt = formatters.get(timeZone);
  if (!fmt) {
    const numeric = {
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    } as const;
    fmt = new Intl.DateTimeFormat('en-GB', { timeZone, ...numeric, hourCycle: 'h23', numberingSystem: 'latn' });
    if (formatters.size < 50) formatters.set(timeZone, fmt);
  }
  const parts = fmt.formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const milli = ((ms % 1000) + 1000) % 1000;
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) + milli;
}

/**
 * The first instant whose local time in the zone is at or after `local` (a local date and
 * time written as UTC ms): the instant itself when it exists once, its first occurrence
 * when it exists twice, the first instant after the gap when the zone skips it.
 */
function firstInstantAtLocal(local: number, timeZone: string): number {
  const offsetAt = (ms: number) => localAsUtc(ms, timeZone) - ms;
  // One change of offset at most between a day before and a day after.
  const candidates = [local - offsetAt(local - DAY_MS), local - offsetAt(local + DAY_MS)];
  const exact = candidates.filter((t) => localAsUtc(t, timeZone) === local);
  if (exact.length > 0) return Math.min(...exact);
  // A gap: local time jumps over `local`. Search the change between the two candidates.
  let lo = Math.min(...candidates); // local time before `local`
  let hi = Math.max(...candidates); // local time after it
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (localAsUtc(mid, timeZone) >= local) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Milliseconds from `ms` until the quiet window ends, or 0 when `ms` is outside it: the
 * window begun on the local day before (one that spans midnight) or on the local day of `ms`.
 */
export function quietRemainingMs(q: QuietHours | undefined, ms: number, timeZone: string): number {
  if (!q) return 0;
  const local = localAsUtc(ms, timeZone);
  const today = local - (((local % DAY_MS) + DAY_MS) % DAY_MS); // local midnight, as UTC ms
  const spans = q.endMinute < q.startMinute;
  for (const day of spans ? [today - DAY_MS, today] : [today]) {
    const start = firstInstantAtLocal(day + q.startMinute * 60_000, timeZone);
    if (ms < start) continue;
    const end = firstInstantAtLocal(day + (spans ? DAY_MS : 0) + q.endMinute * 60_000, timeZone);
    if (ms < end) return end - ms;
  }
  return 0;
}
