// The loop primitive (core/loop.ts) on the fake clock: one run at a time, a kick while
// running gives exactly one more run, the run's answer sets the next wake-up (or none),
// wakeIn keeps the earliest, a failing run is reported and retried after retryMs, stop()
// ends the wake-ups and waits for the run in flight (bounded by a grace when given).
import t from 'tap';
import { watchClock } from '../../src/core/clock-watch.js';
import { createLoop, MAX_WAIT_STEP_MS } from '../../src/core/loop.js';
import { fakeClock } from '../helpers/fake-clock.js';

/** A loop whose runs are counted and can be held open until released. */
function harness(answer: (n: number) => number | undefined = () => undefined) {
  const clock = fakeClock();
  const errors: unknown[] = [];
  let runs = 0;
  let active = 0;
  let maxActive = 0;
  let hold: Promise<void> | undefined;
  let failNext = false;
  const loop = createLoop({
    clock,
    retryMs: 30_000,
    onError: (err) => errors.push(err),
    async run() {
      runs++;
      active++;
      maxActive = Math.max(maxActive, active);
      try {
        if (hold) await hold;
        if (failNext) {
          failNext = false;
          throw new Error('boom');
        }
        return answer(runs);
      } finally {
        active--;
      }
    },
  });
  let release = () => {};
  return {
    clock,
    loop,
    errors,
    runs: () => runs,
    maxActive: () => maxActive,
    holdNext() {
      hold = new Promise((r) => {
        release = () => {
          hold = undefined;
          r();
        };
      });
    },
    release: () => release(),
    failNext: () => (failNext = true),
  };
}

t.test('a kick runs once; with no delay returned the loop sleeps (no timer)', async (t) => {
  const h = harness();
  await h.loop.kick();
  t.equal(h.runs(), 1);
  t.equal(h.loop.hasTimer(), false);
  await h.clock.tick(3_600_000);
  t.equal(h.runs(), 1, 'nothing runs until kicked');
});

t.test('kicks while a run is in flight give exactly one more run, never two at once', async (t) => {
  const h = harness();
  h.holdNext();
  const first = h.loop.kick();
  const a = h.loop.kick();
  const b = h.loop.kick();
  t.equal(h.runs(), 1, 'the follow-up waits');
  h.release();
  await Promise.all([first, a, b]);
  t.equal(h.runs(), 2, 'three kicks during one run: one follow-up');
  t.equal(h.maxActive(), 1, 'never two runs at once');
});

t.test('the delay a run returns is the next wake-up, on the clock', async (t) => {
  const h = harness((n) => (n < 3 ? 1000 : undefined));
  await h.loop.kick();
  t.equal(h.loop.hasTimer(), true);
  await h.clock.tick(999);
  t.equal(h.runs(), 1, 'not before 1 s');
  await h.clock.tick(1);
  t.equal(h.runs(), 2);
  await h.clock.tick(1000);
  t.equal(h.runs(), 3);
  t.equal(h.loop.hasTimer(), false, 'the third run asked for nothing: asleep');
});

t.test('wakeIn keeps the earliest wake-up; a run cancels the one it replaces', async (t) => {
  const h = harness();
  h.loop.wakeIn(5000);
  h.loop.wakeIn(8000);
  h.loop.wakeIn(2000);
  t.equal(h.clock.pendingTimers(), 1, 'one timer');
  await h.clock.tick(1999);
  t.equal(h.runs(), 0);
  await h.clock.tick(1);
  t.equal(h.runs(), 1, 'woke at the earliest (2 s)');
  await h.clock.tick(10_000);
  t.equal(h.runs(), 1, 'the later asks were folded into it');
  h.loop.wakeIn(1000);
  await h.loop.kick();
  t.equal(h.runs(), 2);
  t.equal(h.loop.hasTimer(), false, 'a kick before the wake-up cancels it');
  await h.clock.tick(5000);
  t.equal(h.runs(), 2);
});

t.test('a failing run is reported and retried after retryMs', async (t) => {
  const h = harness();
  h.failNext();
  await h.loop.kick();
  t.equal(h.errors.length, 1);
  t.equal((h.errors[0] as Error).message, 'boom');
  await h.clock.tick(29_999);
  t.equal(h.runs(), 1, 'not before the retry delay');
  await h.clock.tick(1);
  t.equal(h.runs(), 2, 'retried after 30 s');
  t.equal(h.errors.length, 1);
});

t.test('stop() waits for the run in flight, then nothing runs; start() allows runs again', async (t) => {
  const h = harness(() => 1000);
  h.holdNext();
  void h.loop.kick();
  void h.loop.kick(); // a follow-up asked for
  let stopped = false;
  const stopping = h.loop.stop().then(() => (stopped = true));
  await h.clock.tick(0);
  t.equal(stopped, false, 'still waiting for the run');
  h.release();
  await stopping;
  t.equal(h.runs(), 1, 'the follow-up did not run after stop');
  t.equal(h.loop.hasTimer(), false, 'the returned delay set no timer');
  await h.loop.kick();
  t.equal(h.runs(), 1, 'a kick after stop does nothing');
  h.loop.start();
  await h.loop.kick();
  t.equal(h.runs(), 2);
});

t.test('stop(grace) gives up waiting after the grace', async (t) => {
  const h = harness();
  h.holdNext();
  void h.loop.kick();
  let stopped = false;
  const stopping = h.loop.stop(35_000).then(() => (stopped = true));
  await h.clock.tick(34_999);
  t.equal(stopped, false);
  await h.clock.tick(1);
  await stopping;
  t.equal(stopped, true, 'done after 35 s although the run still hangs');
  h.release();
});

t.test('a wait of 30 days is armed in steps: the run comes at its time, never on a step', async (t) => {
  const h = harness((n) => (n === 1 ? 30 * 86_400_000 : undefined));
  await h.loop.kick();
  const fired = h.clock.firedTimers();
  await h.clock.tick(30 * 86_400_000 - 1); // the fake clock throws at a timer past 2^31-1 ms
  t.equal(h.runs(), 1, 'no run before its time');
  t.equal(h.clock.firedTimers() - fired, Math.floor((30 * 86_400_000 - 1) / MAX_WAIT_STEP_MS), 'one wake-up a step');
  await h.clock.tick(1);
  t.equal(h.runs(), 2, 'run at its time');
  t.equal(h.loop.hasTimer(), false);
});

t.test('a step sees a wall-clock jump; a listener asking for an earlier wake-up gets it', async (t) => {
  const fake = fakeClock();
  let runs = 0;
  // eslint-disable-next-line prefer-const -- the listener needs the loop, the loop the clock
  let loop: ReturnType<typeof createLoop> | undefined;
  const clock = watchClock(fake, { onJump: () => loop?.wakeIn(0) });
  loop = createLoop({
    clock,
    retryMs: 1000,
    onError: () => undefined,
    run: () => (++runs === 1 ? 86_400_000 : undefined),
  });
  await loop.kick();
  fake.set(fake.now() + 3_600_000);
  await fake.tick(MAX_WAIT_STEP_MS - 1);
  t.equal(runs, 1, 'nothing reads the clock before the first step');
  await fake.tick(1);
  t.equal(runs, 2, 'the step saw the jump and the loop ran at once');
});
