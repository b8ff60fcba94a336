// V8's memory mode is set once, a second after the gateway's port is bound, never at once.
import t from 'tap';
import { favourMemorySoon, MEMORY_MODE_AFTER_MS, MEMORY_MODE_FLAG, MEMORY_MODE_OFF } from '../../src/core/memory-mode.js';
import { fakeClock } from '../helper.js';

t.test('--optimize-for-size is set once, MEMORY_MODE_AFTER_MS later', async (t) => {
  const clock = fakeClock();
  const set: string[] = [];
  favourMemorySoon(clock, (flag) => set.push(flag), ['--max-semi-space-size=1', '--single-threaded-gc']);
  t.same(set, [], 'not during the start');
  await clock.tick(MEMORY_MODE_AFTER_MS - 1);
  t.same(set, [], 'nor before the second is up');
  await clock.tick(1);
  t.same(set, ['--optimize-for-size']);
  await clock.tick(60_000);
  t.same(set, [MEMORY_MODE_FLAG], 'once');
});

t.test('Node started with --no-optimize-for-size keeps it off', async (t) => {
  const clock = fakeClock();
  const set: string[] = [];
  favourMemorySoon(clock, (flag) => set.push(flag), ['--max-semi-space-size=1', MEMORY_MODE_OFF]);
  await clock.tick(60_000);
  t.same(set, []);
});

t.test('the flag is one V8 knows (setFlagsFromString ignores unknown ones silently)', async (t) => {
  const r = (await import('node:child_process')).spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' });
  t.match(r.stdout, new RegExp(`^\\s*${MEMORY_MODE_FLAG.replace(/-/g, '[-_]')} \\(`, 'm'));
});
