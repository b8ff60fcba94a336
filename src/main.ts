// Process entry: turns on Node's compile cache in the gateway's home (faster starts on a
// phone), then runs the CLI and exits with its code. The CLI is imported only after the
// cache is on, so its modules are the ones cached; `start` through its own entry.
import { existsSync } from 'node:fs';
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { resolveHome } from './core/home.js';

// Only into a home that exists: the gateway creates it private (0700); the cache must not
// create it first with looser modes.
const home = resolveHome(process.env);
if (existsSync(home)) enableCompileCache(join(home, 'compile-cache'));

// `start` loads its own entry, bundled apart from the router and the other commands.
const argv = process.argv.slice(2);
const { main } = argv[0] === 'start' ? await import('./cli/start-entry.js') : await import('./cli/router.js');
process.exit(await main(argv));
