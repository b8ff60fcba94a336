// The system clock's timers (core/clock.ts): a wait longer than Node's setTimeout takes
// (2^31-1 ms, about 24.86 days) is armed in steps, never handed to Node whole (which would
// fire it after 1 ms with a TimeoutOverflowWarning: issue 34, case 2). Real timers, a few
// milliseconds, one process: the steps are shown with a tiny injected step.
import { setTimeout as delay } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import t from 'tap';
import { createSystemClock, systemClock } from '../../src/core/clock.js';

t.test('a timer past 2^31-1 ms neither fires early nor warns', async (t) => {
  const warnings: string[] = [];
  const onWarning = (w: Error) => warnings.push(w.name);
  process.on('warning', onWarning);
  t.teardown(() => void process.off('warning', onWarning));
  let fired = false;
  const timer = systemClock.setTimer(() => (fired = true), 2 ** 31 - 1 + 86_400_000); // a sendAt 25.86 days ahead
  await delay(50);
  timer.cancel();
  t.equal(fired, false, 'not fired after 50 ms (Node would fire an overflowed timer after 1 ms)');
  t.same(
    warnings.filter((w) => w === 'TimeoutOverflowWarning'),
    [],
    'no TimeoutOverflowWarning',
  );
});

t.test('a long wait runs in steps: never early, once, and cancel() stops it between steps', async (t) => {
  const clock = createSystemClock({ maxStepMs: 5 });
  const keepAlive = setTimeout(() => undefined, 10_000); // the clock's timers are unref'd
  t.teardown(() => clearTimeout(keepAlive));
  const began = performance.now();
  const ran: number[] = [];
  await new Promise<void>((resolve) => {
    clock.setTimer(() => {
      ran.push(performance.now() - began);
      resolve();
    }, 40);
  });
  t.equal(ran.length, 1, 'ran once');
  t.ok(ran[0]! >= 39, `not before its 40 ms (${ran[0]!.toFixed(1)} ms), after 8 steps of 5 ms`);

  // Cancelled a few 5 ms steps into a 200 ms wait. On a machine too busy to cancel before the
  // wait is due the try proves nothing, so it is made again (a timed assertion across a loaded
  // CI would be flaky, not wrong).
  for (let tries = 1; ; tries++) {
    let cancelledRan = false;
    const armed = performance.now();
    const cancelled = clock.setTimer(() => (cancelledRan = true), 200);
    await delay(12);
    const cancelledAt = performance.now() - armed;
    cancelled.cancel();
    if ((cancelledRan || cancelledAt >= 150) && tries < 5) continue;
    t.ok(cancelledAt < 150, `cancelled before its time (${cancelledAt.toFixed(1)} ms of 200, try ${tries})`);
    await delay(250);
    t.equal(cancelledRan, false, 'a cancelled stepped timer never runs');
    break;
  }
});
