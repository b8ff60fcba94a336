// GET /api/stats/daily: each of the last N days of the phone's calendar, oldest first,
// today last, zeros for days without messages; days=1..90 (default 14), anything else 400.
import t from 'tap';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { daysEnding } from '../../src/http/routes/stats.js';

const DAY = 86_400_000;

t.test('sent and failed land on their own day; every day is there', async (t) => {
  let n = 0;
  const { sender } = recordingSender(() =>
    n++ % 2 === 1 ? { ok: false, reason: 'simulated_failure', detail: 'x' } : { ok: true },
  );
  const { send, get, clock } = await testApp(t, { sender, timeZone: 'Europe/Berlin' });
  // 2026-11-21 12:00 UTC: two sends (one fails) today-2, three (one fails) today.
  clock.advance(-2 * DAY);
  for (let i = 0; i < 2; i++) await send({ to: '12345', message: `a${i}` });
  clock.advance(2 * DAY);
  for (let i = 0; i < 3; i++) await send({ to: '12345', message: `b${i}` });
  const res = await get('/api/stats/daily');
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.equal(body.data.timeZone, 'Europe/Berlin');
  const days = body.data.days as { date: string; sent: number; failed: number; accepted: number; queued: number }[];
  t.equal(days.length, 14, 'default 14 days');
  t.equal(days[13]!.date, '2026-11-21', 'today last');
  t.equal(days[0]!.date, '2026-11-08', 'oldest first');
  t.match(days[11], { date: '2026-11-19', accepted: 2, sent: 1, failed: 1, queued: 0 });
  t.match(days[13], { date: '2026-11-21', accepted: 3, sent: 2, failed: 1 });
  t.same(days[12], {
    date: '2026-11-20',
    accepted: 0,
    sent: 0,
    failed: 0,
    cancelled: 0,
    queued: 0,
    segments: 0,
    billedSegments: 0,
  });
  t.equal(
    days.reduce((a, d) => a + d.sent, 0),
    3,
  );
  const three = (await get('/api/stats/daily?days=3')).json().data.days;
  t.same(
    three.map((d: { date: string }) => d.date),
    ['2026-11-19', '2026-11-20', '2026-11-21'],
  );
  t.equal((await get('/api/stats/daily?days=90')).json().data.days.length, 90);
});

t.test("the day is the phone's: 23:30 UTC is tomorrow in Berlin", async (t) => {
  const { send, get, clock } = await testApp(t, { timeZone: 'Europe/Berlin' });
  clock.advance(11.5 * 3_600_000 - 1000); // 23:30 UTC (send() moves one more second)
  await send({ to: '12345', message: 'late' });
  const days = (await get('/api/stats/daily?days=2')).json().data.days;
  t.match(days, [
    { date: '2026-11-21', sent: 0 },
    { date: '2026-11-22', sent: 1 },
  ]);
});

t.test('days outside 1..90, not a whole number, or an unknown parameter: 400', async (t) => {
  const { get, app } = await testApp(t);
  for (const q of ['days=0', 'days=91', 'days=1.5', 'days=x', 'days=-1', 'foo=1']) {
    const res = await get(`/api/stats/daily?${q}`);
    t.equal(res.statusCode, 400, q);
    t.equal(res.json().error.code, 'invalid_request', q);
  }
  const nokey = await app.inject({ url: '/api/stats/daily', remoteAddress: '192.168.1.9' });
  t.equal(nokey.statusCode, 401, 'the key is needed');
});

t.test('daysEnding crosses months, years and DST changes', async (t) => {
  t.same(daysEnding('2026-03-01', 3), ['2026-02-27', '2026-02-28', '2026-03-01']);
  t.same(daysEnding('2027-01-01', 2), ['2026-12-31', '2027-01-01']);
  t.same(daysEnding('2026-03-30', 3), ['2026-03-28', '2026-03-29', '2026-03-30']);
  t.same(daysEnding('2026-11-21', 1), ['2026-11-21']);
});
