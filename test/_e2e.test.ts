// The end-to-end files (test/e2e/*.test.ts), run from this one file. Each starts the real
// gateway on port 8080, so on Linux as root each file runs in a network namespace of its own
// (`ip netns exec`, loopback up): its own port 8080, its own port lock (scripts/port-lock.ts
// keys the lock by namespace), and E2E_JOBS files at once, the longest first. Elsewhere (not
// root, no `ip netns`) they run one after another in the machine's namespace. `npm test` runs
// this file instead of test/e2e (package.json's tap "exclude"); `npx tap test/e2e/` or one
// file still runs them directly, taking turns on the machine's port 8080.
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './helpers/paths.js';
import { ip, mustIp, namespacesUnavailable } from './fixtures/ip.js';

/** The slowest files of a full run (each 30 to 80 s on 2 cores beside the unit files), started first so none starts last. */
const LONGEST_FIRST = [
  'kill-queued',
  'flood',
  'start-stop',
  'queue',
  'kill-sync',
  'events',
  'mqtt-shared',
  'docs-shell',
];
const JOBS = Number(process.env.E2E_JOBS ?? 6);

const dir = join(ROOT, 'test/e2e');
const rank = (f: string) => {
  const i = LONGEST_FIRST.indexOf(f.replace(/\.test\.ts$/, ''));
  return i < 0 ? LONGEST_FIRST.length : i;
};
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
// The same node flags (the TypeScript loader, coverage's process info) and environment.
const node = [process.execPath, ...process.execArgv];
const why = namespacesUnavailable(`smsgw-e2e-probe-${process.pid}`);

if (why) {
  t.comment(`end-to-end files one after another: no network namespaces (${why})`);
  for (const file of files)
    t.spawn(node[0]!, [...node.slice(1), join(dir, file)], { env: process.env, cwd: ROOT }, `test/e2e/${file}`);
} else {
  t.jobs = JOBS;
  files.forEach((file, i) => {
    const ns = `smsgw-e2e-${process.pid}-${i}`;
    ip(['netns', 'del', ns]);
    mustIp(['netns', 'add', ns]);
    mustIp(['-n', ns, 'link', 'set', 'lo', 'up']);
    t.teardown(() => void ip(['netns', 'del', ns]));
    t.spawn('ip', ['netns', 'exec', ns, ...node, join(dir, file)], { env: process.env, cwd: ROOT }, `test/e2e/${file}`);
  });
}
