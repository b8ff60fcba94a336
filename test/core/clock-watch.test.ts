// The clock watch (core/clock-watch.ts): a wall clock moving against the monotonic clock
// by more than the threshold is a jump, reported once, inside the now() that sees it and
// before that now() returns; drift below the threshold never adds up to one.
import t from 'tap';
import { JUMP_THRESHOLD_MS, watchClock, type ClockJump } from '../../src/core/clock-watch.js';
import { fakeClock } from '../helpers/fake-clock.js';

t.test('a jump forward and back is reported once each, with its size', async (t) => {
  const fake = fakeClock();
  const jumps: ClockJump[] = [];
  const clock = watchClock(fake, { onJump: (j) => jumps.push(j) });
  fake.advance(60_000);
  t.equal(clock.now(), fake.now());
  t.same(jumps, [], 'time moving on is no jump');
  fake.set(fake.now() + 7_200_000);
  const seen = clock.now();
  t.same(jumps, [{ deltaMs: 7_200_000, at: seen }], 'two hours forward');
  clock.now();
  t.equal(jumps.length, 1, 'reported once');
  fake.set(fake.now() - 3 * 365 * 86_400_000);
  clock.now();
  t.equal(jumps[1]?.deltaMs, -3 * 365 * 86_400_000, 'three years back');
});

t.test('drift below the threshold never adds up to a jump; listeners see the new time already', async (t) => {
  const fake = fakeClock();
  const jumps: number[] = [];
  let inside: number | undefined;
  const clock = watchClock(fake, {
    onJump: (j) => {
      jumps.push(j.deltaMs);
      inside = clock.now(); // a listener reading the time sees no second jump
    },
  });
  for (let i = 0; i < 10; i++) {
    fake.set(fake.now() + JUMP_THRESHOLD_MS - 1);
    clock.now();
  }
  t.same(jumps, [], `ten moves of ${JUMP_THRESHOLD_MS - 1} ms: no jump`);
  fake.set(fake.now() + JUMP_THRESHOLD_MS + 1);
  const seen = clock.now();
  t.same(jumps, [JUMP_THRESHOLD_MS + 1]);
  t.equal(inside, seen, 'the listener read the new time, and no second jump');
  t.equal(clock.monotonicMs(), fake.monotonicMs());
});
