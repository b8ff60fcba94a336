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

// Europe/Berlin: 2026-03-29 skips 02:00-03:00 (01:00Z); 2026-10-25 repeats 02:00-03:00 (00:00Z-01:00Z twice).
t.test('daylight saving: an end time the night skips ends the window at the first instant after the gap', async (t) => {
  const z = 'Europe/Berlin';
  t.equal(
    quietRemainingMs(q('22:00-02:01'), at('2026-03-29T00:59:00Z'), z),
    60_000,
    '02:01 does not exist: the window ends at 03:00 local, not 03:01',
  );
  t.equal(
    quietRemainingMs(q('22:00-02:59'), at('2026-03-29T00:59:00Z'), z),
    60_000,
    '02:59 does not exist: 03:00 local, not 03:59',
  );
  t.equal(
    quietRemainingMs(q('22:00-02:59'), at('2026-03-28T21:37:00Z'), z),
    3 * 3600_000 + 23 * 60_000,
    'from 22:37 the night before',
  );
  t.equal(quietRemainingMs(q('22:00-02:59'), at('2026-03-29T01:00:00Z'), z), 0, 'over at 03:00 local');
  t.equal(
    quietRemainingMs(q('22:00-04:00'), at('2026-03-29T00:30:00Z'), z),
    90 * 60_000,
    'an end after the gap: from 01:30 to 04:00 local is 1.5 hours that night',
  );
  t.equal(
    quietRemainingMs(q('02:30-05:00'), at('2026-03-29T00:59:00Z'), z),
    0,
    'a start in the gap: not yet at 01:59 local',
  );
  t.equal(quietRemainingMs(q('02:30-05:00'), at('2026-03-29T01:00:00Z'), z), 2 * 3600_000, 'begun at 03:00 local');
});

t.test('daylight saving: an end time that comes twice ends the window at its first occurrence', async (t) => {
  const z = 'Europe/Berlin';
  t.equal(quietRemainingMs(q('22:00-02:30'), at('2026-10-25T00:29:00Z'), z), 60_000, 'the first 02:30 (CEST)');
  t.equal(quietRemainingMs(q('22:00-02:30'), at('2026-10-25T00:30:00Z'), z), 0, 'over at the first 02:30');
  t.equal(
    quietRemainingMs(q('22:00-02:30'), at('2026-10-25T01:10:00Z'), z),
    0,
    'the second 02:10 (CET) does not open it again',
  );
  t.equal(
    quietRemainingMs(q('22:00-07:00'), at('2026-10-24T20:00:00Z'), z),
    10 * 3600_000,
    'a night one hour longer: 22:00 CEST to 07:00 CET',
  );
  t.equal(
    quietRemainingMs(q('02:30-05:00'), at('2026-10-25T01:10:00Z'), z),
    2 * 3600_000 + 50 * 60_000,
    'begun at the first 02:30, still on in the second 02:10',
  );
});
