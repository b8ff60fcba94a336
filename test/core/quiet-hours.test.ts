// Quiet hours: parsing, and the time left in the window, across midnight and time zones.
import t from 'tap';
import { parseQuietHours, quietRemainingMs, type QuietHours } from '../../src/core/quiet-hours.js';

const q = (raw: string) => parseQuietHours(raw) as QuietHours;
const at = (iso: string) => Date.parse(iso);

t.test('parsing', async (t) => {
  t.same(parseQuietHours('22:00-07:00'), { startMinute: 1320, endMinute: 420, text: '22:00-07:00' });
  t.same(parseQuietHours(' 09:30 - 17:45 '), { startMinute: 570, endMinute: 1065, text: '09:30-17:45' });
  for (const bad of ['', '22-07', '22:00', '24:00-07:00', '22:60-07:00', '7:00-8:00', '22:00-07:00-08:00', 'night']) {
    t.match(parseQuietHours(bad), /^must be HH:MM-HH:MM/, bad);
  }
  t.match(parseQuietHours('08:00-08:00'), /must differ/);
});

t.test('a window across midnight (UTC)', async (t) => {
  const night = q('22:00-07:00');
  t.equal(quietRemainingMs(night, at('2026-11-22T21:59:59.999Z'), 'UTC'), 0, 'just before');
  t.equal(quietRemainingMs(night, at('2026-11-22T22:00:00.000Z'), 'UTC'), 9 * 3600_000, 'at the start: 9 hours');
  t.equal(quietRemainingMs(night, at('2026-11-22T23:30:15.500Z'), 'UTC'), 7.5 * 3600_000 - 15_500);
  t.equal(quietRemainingMs(night, at('2026-11-23T06:59:59.000Z'), 'UTC'), 1000, 'one second left');
  t.equal(quietRemainingMs(night, at('2026-11-23T07:00:00.000Z'), 'UTC'), 0, 'the end is outside');
  t.equal(quietRemainingMs(night, at('2026-11-23T12:00:00.000Z'), 'UTC'), 0, 'midday');
});

t.test('a window within one day, and the phone time zone', async (t) => {
  const lunch = q('12:00-13:00');
  t.equal(quietRemainingMs(lunch, at('2026-11-22T12:30:00Z'), 'UTC'), 30 * 60_000);
  // 11:30 UTC is 12:30 in Berlin (UTC+1 in November).
  t.equal(quietRemainingMs(lunch, at('2026-11-22T11:30:00Z'), 'Europe/Berlin'), 30 * 60_000);
  t.equal(quietRemainingMs(lunch, at('2026-11-22T12:30:00Z'), 'Europe/Berlin'), 0);
  t.equal(quietRemainingMs(undefined, at('2026-11-22T12:30:00Z'), 'UTC'), 0, 'no quiet hours');
});
