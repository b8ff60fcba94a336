// The docs' commands run as written, as far as a test can run them without a phone: every
// `sms-gateway <command> [<subcommand>]` the pages name exists (its --help exits 0 and names
// the subcommand), every `npm run <script>` names a script of package.json, and every curl
// call of a ```sh block asks for a route /openapi.json declares, with its method.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';
import { blocks, pages } from './pages.js';

/** Commands whose second word is a subcommand. */
const WITH_SUBCOMMANDS = new Set(['key', 'service', 'boot', 'webhook', 'simulate', 'queue']);
/** "sms-gateway is listening ..." quotes a log line, not a command. */
const NOT_COMMANDS = new Set(['is']);

/** Every command named in the pages: "status", "key show", ... */
export function namedCommands(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/(?:^|[\s`(|$])(?:\.\/bin\/|npx )?sms-gateway ([a-z][a-z-]*)(?: ([a-z][a-z-]*))?/gm)) {
    const [, command, sub] = m as unknown as [string, string, string | undefined];
    if (NOT_COMMANDS.has(command)) continue;
    out.add(WITH_SUBCOMMANDS.has(command) && sub ? `${command} ${sub}` : command);
  }
  return out;
}

/** One command's --help: its exit code and whether it names the subcommand. */
function helpOf(command: string, home: string) {
  const [name, sub] = command.split(' ');
  const res = spawnSync(process.execPath, [CLI, name!, '--help'], { encoding: 'utf8', env: { ...process.env, SMS_GATEWAY_HOME: home }, timeout: 30_000 });
  const named = sub === undefined || new RegExp(`\\b${sub}\\b`).test(res.stdout);
  return { status: res.status, named, out: res.stdout + res.stderr };
}

const all = pages();
const shell = all.flatMap((p) => blocks(p.text, 'sh').map((b) => ({ page: p.path, block: b })));

t.test('every sms-gateway command the docs name exists: --help exits 0 and names it', async (t) => {
  const commands = new Set(all.flatMap((p) => [...namedCommands(p.text)]));
  for (const expected of ['start', 'status', 'doctor', 'key show', 'send', 'webhook add', 'simulate receive', 'service install', 'boot install']) {
    t.ok(commands.has(expected), `the docs name ${expected}`);
  }
  const home = tempDir(t);
  for (const command of commands) {
    const help = helpOf(command, home);
    t.equal(help.status, 0, `sms-gateway ${command} --help exits 0`);
    t.ok(help.named, `its help names "${command}"`);
  }
});

t.test('and the check fails on a command or a subcommand that does not exist', async (t) => {
  const home = tempDir(t);
  t.not(helpOf('nosuch', home).status, 0);
  t.notOk(helpOf('key nosuch', home).named);
  t.same([...namedCommands('run `sms-gateway key nosuch` and `./bin/sms-gateway status`')], ['key nosuch', 'status']);
});

t.test('every `npm run <script>` of a shell block is a script of package.json', async (t) => {
  const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>);
  const named = shell.flatMap(({ page, block }) => [...block.matchAll(/npm run ([\w:-]+)/g)].map((m) => ({ page, script: m[1]! })));
  t.ok(named.length > 0, `${named.length} npm run lines`);
  for (const { page, script } of named) t.ok(scripts.includes(script), `${page}: npm run ${script}`);
});

t.test("every curl call of a shell block asks for a declared route with that method", async (t) => {
  const { get } = await testApp(t);
  const doc = (await get('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  const templates = Object.keys(doc.paths);
  const routeOf = (path: string) =>
    templates.find((p) => p === path) ?? templates.find((p) => new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
  let n = 0;
  for (const { page, block } of shell) {
    for (const command of block.replace(/\\\n/g, ' ').split('\n').filter((l) => /^\s*curl /.test(l))) {
      const url = /(?:\$GW|https?:\/\/(?:127\.0\.0\.1|192\.168\.1\.50):8080)(\/[^\s"']*)/.exec(command)?.[1];
      if (!url) continue;
      const method = (/-X (\w+)/.exec(command)?.[1] ?? 'GET').toLowerCase();
      const route = routeOf(url.split('?')[0]!);
      t.ok(route && doc.paths[route]![method], `${page}: ${method.toUpperCase()} ${url}`);
      n++;
    }
  }
  t.ok(n >= 15, `${n} curl calls checked`);
});
