// scripts/build-tap.mjs (npm install's prepare): the test files run with Node's own type
// stripping and the project's loader, never with tap's default TypeScript plugin. Without
// that build, the first `npm test` after a clean install (CI's only one) loads ts-node into
// every test process (tapjs/tapjs#974) and takes nearly twice as long; this file, run in that
// same first run, sees it in its own Node arguments.
import t from 'tap';

t.test('this test process has no @tapjs/typescript loader: tap was built for our plugin list', async (t) => {
  const loaders = process.execArgv.filter(
    (a) => a.startsWith('--import') || a.startsWith('--loader') || a.startsWith('--require'),
  );
  t.notOk(
    loaders.some((a) => a.includes('@tapjs/typescript')),
    `node arguments: ${loaders.join(' ')}`,
  );
  t.ok(
    loaders.some((a) => a.includes('test/fixtures/ts-loader.mjs')),
    "the project's loader (package.json tap node-arg) is there",
  );
});
