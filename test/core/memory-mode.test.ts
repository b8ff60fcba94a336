// V8's memory mode is set once, a second after the gateway's port is bound, never at once.
import t from 'tap';
import {
  favourMemorySoon,
  MEMORY_MODE_AFTER_MS,
  MEMORY_MODE_FLAG,
  MEMORY_MODE_OFF,
  STEADY_STATE_FLAG,
} from '../../src/core/memory-mode.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { plainCodeCache } from '../helpers/code-cache.js';

t.test('both flags are set once, MEMORY_MODE_AFTER_MS later', async (t) => {
  const clock = fakeClock();
  const set: string[] = [];
  favourMemorySoon(clock, (flag) => set.push(flag), ['--max-semi-space-size=1', '--single-threaded-gc']);
  t.same(set, [], 'not during the start');
  await clock.tick(MEMORY_MODE_AFTER_MS - 1);
  t.same(set, [], 'nor before the second is up');
  await clock.tick(1);
  t.same(set, ['--optimize-for-size', '--no-allocation-site-pretenuring']);
  await clock.tick(60_000);
  t.same(set, [MEMORY_MODE_FLAG, STEADY_STATE_FLAG], 'once');
});

t.test('Node started with --no-optimize-for-size keeps it off (the pretenuring flag is still set)', async (t) => {
  const clock = fakeClock();
  const set: string[] = [];
  favourMemorySoon(clock, (flag) => set.push(flag), ['--max-semi-space-size=1', MEMORY_MODE_OFF]);
  await clock.tick(60_000);
  t.same(set, [STEADY_STATE_FLAG]);
});

t.test('the flags are ones V8 knows (setFlagsFromString ignores unknown ones silently)', async (t) => {
  const r = (await import('node:child_process')).spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  t.match(r.stdout, new RegExp(`^\\s*${MEMORY_MODE_FLAG.replace(/-/g, '[-_]')} \\(`, 'm'));
  // V8 lists the positive form (--allocation-site-pretenuring); --no- turns it off.
  t.match(r.stdout, new RegExp(`^\\s*--${STEADY_STATE_FLAG.slice(5).replace(/-/g, '[-_]')} \\(`, 'm'));
});

t.test('by default it is really set in V8 (this test file runs in its own process)', async (t) => {
  // V8 rejects code cached under other flags: a cache made by a plain Node is rejected here once
  // --optimize-for-size is set. Two scripts: V8 keeps what it compiled, so each is compiled once.
  const { Script } = await import('node:vm');
  const [before, after] = ['function a(x) { return x + 1 }', 'function b(x) { return x + 2 }'];
  const [cacheBefore, cacheAfter] = [plainCodeCache(before), plainCodeCache(after)];
  const clock = fakeClock();
  favourMemorySoon(clock, undefined, []);
  t.equal(
    new Script(before, { cachedData: cacheBefore }).cachedDataRejected,
    false,
    'not yet set: the cache is good here',
  );
  await clock.tick(MEMORY_MODE_AFTER_MS);
  await import('node:v8');
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(new Script(after, { cachedData: cacheAfter }).cachedDataRejected, true, 'set: V8 runs under other flags now');
});
