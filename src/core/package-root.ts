// Where the package lives (the folder with package.json, bin/ and termux-boot/), from this
// module's own place: src/core/ when run from source (tests), dist/ or dist/chunks/ when
// bundled (scripts/build.mjs). No file is read.
import { basename, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const depth = basename(here) === 'core' || basename(here) === 'chunks' ? '../..' : '..';

export const PACKAGE_ROOT: string = resolve(here, depth);
