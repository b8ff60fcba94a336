// The tests' fake clock (test/helpers/fake-clock.ts): its timers fire only when time is moved, each at
// its own time and in order (ties: the one set first), and a cancelled one never fires.
import t from 'tap';
import { fakeClock } from '../helpers/fake-clock.js';

t.test('advance fires due timers in order, each seeing its own time', async (t) => {
  const clock = fakeClock();
  const t0 = clock.monotonicMs();
  const w0 = clock.now();
  const fired: [string, number, number][] = [];
  const note = (name: string) => () => fired.push([name, clock.monotonicMs() - t0, clock.now() - w0]);
  clock.setTimer(note('c'), 300);
  clock.setTimer(note('a'), 100);
  clock.setTimer(note('b'), 100);
  clock.setTimer(note('late'), 1000);
  clock.setTimer(note('gone'), 200).cancel();
  clock.advance(999);
  t.same(fired, [
    ['a', 100, 100],
    ['b', 100, 100],
    ['c', 300, 300],
  ]);
  t.equal(clock.monotonicMs() - t0, 999);
  t.equal(clock.pendingTimers(), 1);
  clock.advance(1);
  t.equal(fired.at(-1)![0], 'late');
  t.equal(clock.pendingTimers(), 0);
});

t.test('a timer set by a timer fires in the same move when due; set() moves only the wall clock', async (t) => {
  const clock = fakeClock();
  const fired: number[] = [];
  clock.setTimer(() => {
    fired.push(1);
    clock.setTimer(() => fired.push(2), 50);
  }, 50);
  clock.advance(100);
  t.same(fired, [1, 2]);
  clock.setTimer(() => fired.push(3), 10);
  clock.set(clock.now() + 86_400_000);
  t.same(fired, [1, 2], 'a wall-clock jump fires nothing');
  await clock.tick(10);
  t.same(fired, [1, 2, 3]);
});

t.test('tick lets a promise chain started by a timer settle before the next timer', async (t) => {
  const clock = fakeClock();
  const seen: string[] = [];
  clock.setTimer(() => void Promise.resolve().then(() => seen.push('chain of the first')), 10);
  clock.setTimer(() => seen.push('second'), 20);
  await clock.tick(20);
  t.same(seen, ['chain of the first', 'second']);
});

t.test('a timer past 2^31-1 ms is an error (Node would fire it after 1 ms)', async (t) => {
  const clock = fakeClock();
  t.throws(() => clock.setTimer(() => {}, 2 ** 31), /Node would fire it after 1 ms/);
  clock.setTimer(() => {}, 2 ** 31 - 1).cancel();
  t.equal(clock.pendingTimers(), 0);
});
