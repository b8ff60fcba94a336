// --at TIME of `sms-gateway send`: HH:MM is the next such local time; dates with or
// without a zone; anything else says what is accepted.
import t from 'tap';
import { parseWhen } from '../../src/cli/when.js';

t.test('HH:MM: today if still ahead, else tomorrow (local time)', async (t) => {
  const now = new Date(2026, 10, 22, 20, 15, 0);
  t.same(parseWhen('21:30', now), new Date(2026, 10, 22, 21, 30, 0));
  t.same(parseWhen('7:05', now), new Date(2026, 10, 23, 7, 5, 0));
  t.same(parseWhen('20:15', now), new Date(2026, 10, 23, 20, 15, 0), 'now is not ahead');
});

t.test('a date and time: local without a zone, as given with one', async (t) => {
  const now = new Date(2026, 10, 22, 20, 15, 0);
  t.same(parseWhen('2026-11-23T07:30', now), new Date(2026, 10, 23, 7, 30, 0));
  t.same(parseWhen('2026-11-23 07:30', now), new Date(2026, 10, 23, 7, 30, 0));
  t.same(parseWhen('2026-11-23T07:30:00+01:00', now), new Date(Date.UTC(2026, 10, 23, 6, 30, 0)));
  t.same(parseWhen('2026-11-23T07:30:00Z', now), new Date(Date.UTC(2026, 10, 23, 7, 30, 0)));
  for (const bad of ['', 'tomorrow', '25:00', '2026-13-45T07:30', '7'])
    t.match(parseWhen(bad, now), /^takes HH:MM/, bad);
});
