import t from 'tap';
import { chooseTimeZone, createCalendar, isValidTimeZone } from '../../src/core/time-zone.js';

t.test('the first valid zone wins; nothing valid is UTC', async (t) => {
  t.equal(chooseTimeZone(['Not/AZone', undefined, null, '  ', 'Europe/Berlin', 'Asia/Tokyo']), 'Europe/Berlin');
  t.equal(chooseTimeZone([undefined, 'garbage']), 'UTC');
  t.equal(chooseTimeZone([]), 'UTC');
  t.equal(isValidTimeZone('America/New_York'), true);
  t.equal(isValidTimeZone('Mars/Olympus'), false);
});

t.test('days and months in the zone, across midnight and DST', async (t) => {
  const berlin = createCalendar('Europe/Berlin');
  t.equal(berlin.dayOf(Date.UTC(2026, 2, 28, 22, 59)), '2026-03-28', '23:59 local, winter time');
  t.equal(berlin.dayOf(Date.UTC(2026, 2, 28, 23, 0)), '2026-03-29');
  t.equal(berlin.dayOf(Date.UTC(2026, 9, 24, 21, 59)), '2026-10-24', '23:59 local, summer time');
  t.equal(berlin.dayOf(Date.UTC(2026, 9, 24, 22, 0)), '2026-10-25');
  t.equal(berlin.monthOf(Date.UTC(2026, 10, 30, 23, 30)), '2026-12');
  const utc = createCalendar('UTC');
  t.equal(utc.monthOf(Date.UTC(2026, 10, 30, 23, 30)), '2026-11');
  t.equal(utc.timeZone, 'UTC');
});
