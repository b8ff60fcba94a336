// Priority in the queue (docs/sending.md, queued sending): among the waiting messages that are
// due, a higher priority is handed off first, then the order as before (sendAt or acceptance,
// then acceptance); nothing skips the pacing, a later sendAt or quiet hours. Time only moves
// through clock.advance(); the lane is driven with runDue().
import t, { type Test } from 'tap';
import type { Sender } from '../../src/sms/senders.js';
import { parseQuietHours, type QuietHours } from '../../src/core/quiet-hours.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

async function setup(t: Test, opts: { start?: number; quietHours?: QuietHours } = {}) {
  const clock = fakeClock(opts.start);
  const log: { at: number; number: string; text: string }[] = [];
  const sender: Sender = {
    async send(h) {
      log.push({ at: clock.monotonicMs(), number: h.number, text: h.text });
      return { ok: true };
    },
  };
  const app = await testApp(t, { clock, sender, ...(opts.quietHours ? { quietHours: opts.quietHours } : {}) });
  const lane = app.gateway.sending.lane;
  const run = async (ms: number, step = 250) => {
    for (let done = 0; done < ms; done += step) {
      clock.advance(Math.min(step, ms - done));
      await lane.runDue();
    }
  };
  return { ...app, lane, log, run };
}

const numbers = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `+1555020${String(from + i).padStart(4, '0')}`);

t.test('a message queued with priority 10 behind 20 waiting ones goes out first', async (t) => {
  // Queued in the last minute of quiet hours, so that all 21 wait when the lane may go.
  const quietHours = parseQuietHours('22:00-07:00') as QuietHours;
  const c = await setup(t, { quietHours, start: Date.UTC(2026, 10, 23, 6, 59, 0) });
  // Each from its own address (the per-caller limit allows about 10 a second).
  for (const [i, to] of numbers(20).entries()) {
    t.equal((await c.queue({ to, message: `plain ${to}` }, {}, `192.168.1.${100 + i}`)).statusCode, 202);
  }
  const urgent = await c.queue({ to: '+15550299999', message: 'urgent', priority: 10 });
  t.equal(urgent.statusCode, 202);
  await c.lane.runDue();
  t.equal(c.gateway.sending.queue.summary().count, 21, '21 waiting');
  await c.run(90_000, 500);
  t.equal(c.log.length, 21, 'all handed off');
  const urgentAt = c.log.findIndex((h) => h.text === 'urgent');
  t.equal(urgentAt, 0, 'the urgent one went first');
  t.same(
    c.log.filter((h) => h.text !== 'urgent').map((h) => h.number),
    numbers(20),
    'the others in acceptance order',
  );
  for (let i = 1; i < c.log.length; i++) t.ok(c.log[i]!.at - c.log[i - 1]!.at >= 1000, 'still 1 s apart');
});

t.test('higher first among due ones; equal priority in acceptance order; negative after 0', async (t) => {
  const start = Date.UTC(2026, 10, 23, 3, 0, 0); // 03:00 UTC, inside the quiet hours below
  const c = await setup(t, { start, quietHours: parseQuietHours('22:00-07:00') as QuietHours });
  const q = async (message: string, priority?: number) =>
    t.equal((await c.queue({ to: numbers(1, c.log.length + message.length)[0], message, priority })).statusCode, 202);
  await q('low', -5);
  await q('zero a');
  await q('high a', 3);
  await q('zero b', 0);
  await q('high b', 3);
  await q('top', 127);
  await c.run(3600_000, 60_000);
  t.same(c.log, [], 'quiet hours hold every priority');
  await c.run(4 * 3600_000, 60_000); // past 07:00
  t.same(
    c.log.map((h) => h.text),
    ['top', 'high a', 'high b', 'zero a', 'zero b', 'low'],
  );
});

t.test('a later sendAt holds a higher priority; once due it goes before the others', async (t) => {
  const c = await setup(t);
  const at = (s: number) => new Date(c.clock.now() + s * 1000).toISOString();
  await c.queue({ to: numbers(5), message: 'bulk' });
  await c.queue({ to: '+15550298888', message: 'scheduled', priority: 50, sendAt: at(2.5) });
  await c.lane.runDue();
  await c.run(2000, 500);
  t.same(
    c.log.map((h) => h.text),
    ['bulk', 'bulk', 'bulk'],
    'not before its sendAt',
  );
  await c.run(1000, 500);
  t.equal(c.log[3]!.text, 'scheduled', 'the next hand-off once it is due');
  await c.run(5000, 500);
  t.equal(c.log.length, 6);
});

t.test('priority must be an integer from -128 to 127 (nothing queued otherwise)', async (t) => {
  const c = await setup(t);
  await c.lane.stop();
  for (const priority of [128, -129, 1.5, '1', null]) {
    const res = await c.queue({ to: '+15550297777', message: 'x', priority });
    t.equal(res.statusCode, 400, String(priority));
    t.match(res.json(), { error: { code: 'invalid_request', message: /priority/ } });
  }
  for (const priority of [-128, 127, 0])
    t.equal((await c.queue({ to: '+15550297777', message: 'x', priority })).statusCode, 202);
  t.equal(c.gateway.sending.queue.summary().count, 3);
});
