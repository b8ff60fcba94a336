// Node's built-in modules by require(), for the few whose ES-module import costs every start:
// imported as an ES module, a built-in has every export read once, and that loads what
// hides behind its lazy ones (node:http's WebSocket and MessageEvent load Node's whole fetch
// stack, undici, ~25 ms; node:util's parseArgs, util.diff and the worker threads' code).
// test/e2e/start-footprint.test.ts shows what a start loads.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * The built-in `id` as require() gives it, typed by the caller: requireBuiltin<typeof
 * import('node:util')>('node:util').
 */
export function requireBuiltin<T>(id: `node:${string}`): T {
  return require(id) as T;
}
