// Where the package lives (the folder with package.json, bin/ and termux-boot/), from this
// module's own place: src/core/ when run from source (tests), dist/ or dist/chunks/ when
// bundled (scripts/build.mjs); and its version, read once from its package.json.
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const depth = basename(here) === 'core' || basename(here) === 'chunks' ? '../..' : '..';

export const PACKAGE_ROOT: string = resolve(here, depth);

/** The package version, from package.json at the package's root. */
const packageJson = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string };
export const VERSION: string = packageJson.version;
