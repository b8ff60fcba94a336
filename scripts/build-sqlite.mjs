// npm postinstall: compiles better-sqlite3 where its package ships no prebuilt binary
// (Android/Termux, 32-bit ARM...). better-sqlite3 13 declares "gypfile": false, so npm
// itself never compiles it; without this step the gateway would fail at its first query.
// Does nothing where a prebuilt binary or an earlier build exists. Uses npm's own node-gyp
// (npm_config_node_gyp, set for lifecycle scripts), run without a shell.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
let dir;
try {
  dir = dirname(require.resolve('better-sqlite3/package.json'));
} catch {
  process.exit(0); // not installed (e.g. npm install --omit of a client-only use): nothing to build
}
const { getPrebuildPath } = require(join(dir, 'lib', 'binding.js'));
const built = join(dir, 'build', 'Release', 'better_sqlite3.node');
const force = process.env.SMS_GATEWAY_BUILD_SQLITE === '1';
if (!force && (getPrebuildPath() || existsSync(built))) process.exit(0);

const gyp = process.env.npm_config_node_gyp;
if (!gyp || !existsSync(gyp)) {
  process.stderr.write(
    'sms-gateway: better-sqlite3 has no prebuilt binary for this platform and node-gyp was not found; run `npm install` (npm brings node-gyp).\n',
  );
  process.exit(1);
}
process.stderr.write(
  `sms-gateway: compiling better-sqlite3 for ${process.platform}-${process.arch} (${force ? 'SMS_GATEWAY_BUILD_SQLITE=1' : 'no prebuilt binary'}; a few minutes on a phone)\n`,
);
try {
  execFileSync(process.execPath, [gyp, 'rebuild', '--release', ...(force ? ['--force_build=1'] : [])], {
    cwd: dir,
    stdio: 'inherit',
  });
} catch {
  process.stderr.write(
    'sms-gateway: compiling better-sqlite3 failed. On Termux: pkg install python make clang binutils, and ~/.gyp/include.gypi must define android_ndk_path (scripts/termux-setup.sh does both).\n',
  );
  process.exit(1);
}
