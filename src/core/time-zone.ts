// Local days and months for the statistics, in the phone's time zone: TZ, else Android's
// persist.sys.timezone (from the device probes), else UTC. An unknown zone name falls
// back to UTC rather than failing.
// Asked on every send and stats read: remember the answer per name.
const validity = new Map<string, boolean>();

export function isValidTimeZone(tz: string): boolean {
  let ok = validity.get(tz);
  if (ok === undefined) {
    try {
      new Intl.DateTimeFormat('en-CA', { timeZone: tz });
      ok = true;
    } catch {
      ok = false;
    }
    if (validity.size < 100) validity.set(tz, ok);
  }
  return ok;
}

export function chooseTimeZone(candidates: (string | undefined | null)[]): string {
  for (const c of candidates) {
    const tz = c?.trim();
    if (tz && isValidTimeZone(tz)) return tz;
  }
  return 'UTC';
}

export interface Calendar {
  timeZone: string;
  /** YYYY-MM-DD of a wall-clock instant in this zone. */
  dayOf(ms: number): string;
  /** YYYY-MM of a wall-clock instant in this zone. */
  monthOf(ms: number): string;
}

export function createCalendar(timeZone: string): Calendar {
  const fmt = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayOf = (ms: number) => {
    const parts = fmt.formatToParts(new Date(ms));
    const get = (type: string) => parts.find((p) => p.type === type)!.value;
    return `${get('year')}-${get('month')}-${get('day')}`;
  };
  return { timeZone, dayOf, monthOf: (ms) => dayOf(ms).slice(0, 7) };
}
