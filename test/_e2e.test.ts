// The end-to-end files (test/e2e/*.test.ts), one after another in one tap worker. They take
// turns on port 8080 anyway (the machine-wide lock); run as separate files, tap filled its
// worker slots with e2e files waiting on that lock while the unit tests waited for a slot.
// Here the chain holds one slot from the start (the _ sorts this file first) and the unit
// tests share the others. `npm test` runs this file instead of test/e2e (package.json's tap
// "exclude"); `npx tap test/e2e/` or one file still runs them directly.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helper.js';

const dir = join(ROOT, 'test/e2e');
for (const file of readdirSync(dir).filter((f) => f.endsWith('.test.ts')).sort()) {
  // The same node flags (tap's TypeScript loader, coverage's process info) and environment.
  t.spawn(process.execPath, [...process.execArgv, join(dir, file)], { env: process.env, cwd: ROOT }, `test/e2e/${file}`);
}
