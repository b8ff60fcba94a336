// V8's steady-state flags, set once the gateway answers: --optimize-for-size (memory over
// speed) and --no-allocation-site-pretenuring (see STEADY_STATE_FLAG). The first, set at run
// time a second after the port is bound instead of on the launcher's first line. Given at
// launch, the flag made V8 run a memory-reducing full collection in the middle of the start
// (14-16 ms of its ~300, while the modules load); set here, a start costs that much less
// and, on Node 24 (the phone's nodejs-lts), the gateway it leaves behind is the same: idle
// RSS, wake-ups and the heap's bound under a connection flood as with the flag at launch
// (V8 reads the flag whenever its heap decides). On Node 26 set late it saves nothing
// measurable at idle (1.3 MB more than with the flag at launch; docs/performance.md). Node
// keeps V8's flags writable after start (v8.setFlagsFromString). Node started with
// --no-optimize-for-size keeps it off (the bench measures the gateway without it). Only the
// real process calls this: the tests' in-process gateways never change the test runner's V8.
import type { Clock } from './clock.js';

export const MEMORY_MODE_FLAG = '--optimize-for-size';
/** After the port is bound: the first answers and the first probe round are not slowed. */
export const MEMORY_MODE_AFTER_MS = 1000;

/** Node's own flag that keeps the memory mode off: --no-optimize-for-size. */
export const MEMORY_MODE_OFF = `--no-${MEMORY_MODE_FLAG.slice(2)}`;

/** V8's flag, set through node:v8, which is loaded then: a start does not load it. */
function setV8Flag(flag: string): void {
  void import('node:v8').then((v8) => v8.setFlagsFromString(flag));
}

/**
 * Set at the same time, with or without the memory mode: V8 stops deciding that an allocation
 * site's objects are long-lived (allocation-site pretenuring). Under a steady /health load V8
 * decided so for Node's per-request objects (the request, the response, their header strings,
 * nextTick's entries) while a full collection was being marked: about a third of every
 * request's bytes went to the old generation, and the full collections that freed them again
 * were 10-18 % of the gateway's CPU (`--trace-gc-nvp`: 190 KB promoted a scavenge against
 * 0.6 KB for bare Fastify). During the start the same pretenuring saves copying (given at launch
 * the flag cost 40-70 ms of CPU more to the first answer), hence set only now.
 */
export const STEADY_STATE_FLAG = '--no-allocation-site-pretenuring';

/**
 * Sets MEMORY_MODE_FLAG (unless Node was started with MEMORY_MODE_OFF) and STEADY_STATE_FLAG
 * MEMORY_MODE_AFTER_MS from now, once.
 */
export function favourMemorySoon(
  clock: Clock,
  set: (flag: string) => void = setV8Flag,
  execArgv: readonly string[] = process.execArgv,
): void {
  const memoryMode = !execArgv.includes(MEMORY_MODE_OFF);
  clock.setTimer(() => {
    if (memoryMode) set(MEMORY_MODE_FLAG);
    set(STEADY_STATE_FLAG);
  }, MEMORY_MODE_AFTER_MS);
}
