// npm prepare (after `npm install` / `npm ci`): builds tap's plugin set for package.json's
// tap "plugin" list, so the first `npm test` after a clean install already runs with it.
// tap rebuilds a changed set at the start of a run, but the files of that run still get the
// set it was installed with (tapjs/tapjs#974): here that meant @tapjs/typescript's ts-node
// compiling every .ts file of every test process, instead of Node's own type stripping, and
// a first `npm test` in a fresh clone of 344 s instead of 186 s (Node 24.21, 2 cores).
// Does nothing where tap is not installed (an install without dev dependencies). A failed
// build only costs that slower first run, so it warns and never fails the install (on the
// phone `npm install` must still give a working gateway). Nothing runs through a shell.
import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let tap;
try {
  const dir = dirname(require.resolve('tap/package.json'));
  tap = join(dir, require('tap/package.json').bin.tap);
} catch {
  process.exit(0);
}
try {
  execFileSync(process.execPath, [tap, 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
} catch {
  process.stderr.write(
    "sms-gateway: building tap's plugin set failed (see above); the gateway is not affected, and the first `npm test` builds it itself, more slowly.\n",
  );
}
