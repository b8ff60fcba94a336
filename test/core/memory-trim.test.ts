// The memory trim (core/memory-trim.ts) on the fake clock: one memory-reducing collection
// TRIM_QUIET_MS after the last activity, none while activity goes on, none again until
// there is new activity, and then only if the heap grew by TRIM_MIN_GROWTH_BYTES since the
// last one; no timer when quiet, nothing at all without `gc`; stop() ends it.
// And this Node gives `gc` under --expose-gc (the launcher sets it) and takes its options.
import { spawnSync } from 'node:child_process';
import t from 'tap';
import { createMemoryTrim, exposedGc, TRIM_MIN_GROWTH_BYTES, TRIM_QUIET_MS, type Collect } from '../../src/core/memory-trim.js';
import { fakeClock } from '../helper.js';

/** A trim whose collections are recorded; each one takes the heap back down to 20 MB. */
function harness() {
  const clock = fakeClock();
  const calls: Parameters<Collect>[0][] = [];
  const heap = { bytes: 30 * 1024 * 1024 };
  const trim = createMemoryTrim(clock, {
    collect: (o) => {
      calls.push(o);
      heap.bytes = 20 * 1024 * 1024;
    },
    heapBytes: () => heap.bytes,
  });
  return { clock, calls, trim, heap };
}

t.test('one collection once quiet for TRIM_QUIET_MS, memory-reducing', async (t) => {
  const { clock, calls, trim } = harness();
  t.notOk(trim.hasTimer(), 'no timer before any activity');
  trim.touch();
  t.ok(trim.hasTimer(), 'a timer once something happened');
  clock.advance(TRIM_QUIET_MS - 1);
  t.equal(calls.length, 0, 'not before the quiet time');
  clock.advance(1);
  t.same(calls, [{ type: 'major', execution: 'sync', flavor: 'last-resort' }], "V8's last-resort collection, once");
  t.notOk(trim.hasTimer(), 'no timer once done: an idle gateway is not woken');
  clock.advance(10 * TRIM_QUIET_MS);
  t.equal(calls.length, 1, 'nothing more without new activity');
  t.equal(trim.runs(), 1);
});

t.test('activity postpones it; one timer however many touches', async (t) => {
  const { clock, calls, trim, heap } = harness();
  trim.touch();
  for (let i = 0; i < 30; i++) {
    clock.advance(TRIM_QUIET_MS / 2);
    trim.touch();
  }
  t.equal(calls.length, 0, 'never while activity goes on');
  t.equal(clock.pendingTimers(), 1, 'one timer');
  clock.advance(TRIM_QUIET_MS);
  t.equal(calls.length, 1, 'once it stops');
  heap.bytes += TRIM_MIN_GROWTH_BYTES;
  trim.touch();
  clock.advance(TRIM_QUIET_MS);
  t.equal(calls.length, 2, 'again after new activity that grew the heap');
});

t.test('activity that did not grow the heap buys no collection (a scrape every 15 s)', async (t) => {
  const { clock, calls, trim, heap } = harness();
  trim.touch();
  clock.advance(TRIM_QUIET_MS);
  t.equal(calls.length, 1, 'the first one always runs');
  for (let i = 0; i < 20; i++) {
    heap.bytes += 100 * 1024; // each scrape leaves a little
    trim.touch();
    clock.advance(15_000);
  }
  t.equal(calls.length, 1, 'none while the heap stayed within 2 MB of the last collection');
  t.notOk(trim.hasTimer(), 'and no timer left');
  heap.bytes += TRIM_MIN_GROWTH_BYTES;
  trim.touch();
  clock.advance(TRIM_QUIET_MS);
  t.equal(calls.length, 2, 'one once it grew past that');
});

t.test('without gc (no --expose-gc) and after stop(): nothing', async (t) => {
  const clock = fakeClock();
  const none = createMemoryTrim(clock, { collect: undefined });
  none.touch();
  t.notOk(none.hasTimer(), 'no timer without gc');
  const { clock: c2, calls, trim } = harness();
  trim.touch();
  trim.stop();
  t.notOk(trim.hasTimer(), 'stop() cancels the timer');
  trim.touch();
  c2.advance(2 * TRIM_QUIET_MS);
  t.equal(calls.length, 0, 'no collection after stop');
});

t.test('exposedGc finds gc only under --expose-gc', async (t) => {
  t.equal(exposedGc() === undefined, typeof (globalThis as { gc?: unknown }).gc !== 'function', 'follows this process');
  const probe = "console.log(typeof globalThis.gc === 'function' ? 'gc' : 'none')";
  const run = (args: string[]) => spawnSync(process.execPath, [...args, '-e', probe], { encoding: 'utf8', timeout: 20_000 }).stdout.trim();
  t.equal(run(['--expose-gc']), 'gc');
  t.equal(run([]), 'none');
  const last = spawnSync(process.execPath, ['--expose-gc', '-e', "gc({ type: 'major', execution: 'sync', flavor: 'last-resort' }); console.log('ok')"], { encoding: 'utf8', timeout: 20_000 });
  t.equal(last.stdout.trim(), 'ok', "this Node's gc takes the options the trim passes");
});
