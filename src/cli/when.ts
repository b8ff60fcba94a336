// The --at TIME of `sms-gateway send`: "HH:MM" is the next such local time (today, or
// tomorrow when it has passed); a date and time without a zone is local time; with a zone
// or Z it is taken as given. Returns the instant, or a message saying what is accepted.
const HHMM = /^([01]?\d|2[0-3]):([0-5]\d)$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;

export function parseWhen(raw: string, now: Date): Date | string {
  const text = raw.trim();
  const hm = HHMM.exec(text);
  if (hm) {
    const d = new Date(now);
    d.setHours(Number(hm[1]), Number(hm[2]), 0, 0);
    if (d.getTime() <= now.getTime()) d.setDate(d.getDate() + 1);
    return d;
  }
  if (DATE_TIME.test(text)) {
    const ms = Date.parse(text.replace(' ', 'T'));
    if (Number.isFinite(ms)) return new Date(ms);
  }
  return 'takes HH:MM, or a date and time such as 2026-11-23T07:30 or 2026-11-23T07:30:00+01:00';
}
