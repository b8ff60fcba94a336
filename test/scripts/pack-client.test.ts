// scripts/pack-client.mjs (npm run pack:client): the client-only package installs offline
// with nothing but itself, its types mention nothing of the server, it works, and the
// client snippet of docs/api.md type-checks against it under strict.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT, tempDir } from '../helpers/paths.js';

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
const TARBALL = `sms-gateway-client-${VERSION}.tgz`;

const CLIENT_HEADING = '## How do I call it from my own code (the client package)?';

/** The TypeScript block under docs/api.md's client heading. */
function clientSection(): string {
  const page = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
  const start = page.indexOf(CLIENT_HEADING);
  if (start === -1) throw new Error(`docs/api.md has no "${CLIENT_HEADING}"`);
  return page.slice(start, page.indexOf('\n## ', start));
}

function readmeSnippet(): string {
  const m = /```ts\n([\s\S]*?)```/.exec(clientSection());
  if (!m) throw new Error('no ```ts block under the client heading of docs/api.md');
  return m[1]!;
}

/** Type-checks one file under strict, resolving packages from `dir` (Node's own types from this repository). */
function typeCheck(dir: string, file: string): { errors: string[]; resolved: string | undefined } {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2022.d.ts'],
    types: ['node'],
    typeRoots: [join(ROOT, 'node_modules/@types')],
    skipLibCheck: false,
  };
  const program = ts.createProgram([join(dir, file)], options);
  const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  const resolved = program
    .getSourceFiles()
    .find((f) => f.fileName.includes('/node_modules/sms-gateway-client/'))?.fileName;
  return { errors, resolved };
}

t.test(
  'pack:client builds a package that installs offline alone, works, and type-checks the docs/api.md snippet',
  async (t) => {
    const out = tempDir(t);
    writeFileSync(join(out, 'keep-me.txt'), "someone else's file"); // --out may name a folder in use
    const packed = spawnSync(process.execPath, [join(ROOT, 'scripts/pack-client.mjs'), '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
    });
    t.equal(packed.status, 0, packed.stderr);
    t.equal(readFileSync(join(out, 'keep-me.txt'), 'utf8'), "someone else's file", 'nothing else in --out is removed');
    t.equal(packed.stdout.trim(), join(out, TARBALL), 'it prints the tarball');

    const pkg = JSON.parse(readFileSync(join(out, 'package/package.json'), 'utf8'));
    t.match(pkg, {
      name: 'sms-gateway-client',
      version: VERSION,
      type: 'module',
      exports: { '.': { types: './client.d.ts', default: './client.js' } },
    });
    t.notOk(pkg.dependencies ?? pkg.peerDependencies ?? pkg.optionalDependencies, 'no dependencies of any kind');
    t.notOk(pkg.scripts, 'no install scripts');
    const dts = readFileSync(join(out, 'package/client.d.ts'), 'utf8');
    t.notMatch(dts, /zod|fastify|better-sqlite3|\bimport\b/, 'the types mention nothing of the server');
    t.match(dts, /export type SendResult = \{ success: true;/, 'shapes spelled out');

    // Install the tarball into a fresh project, offline: it needs nothing from a registry.
    const project = tempDir(t);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'lan-app', private: true, type: 'module' }));
    const npmCli = process.env.npm_execpath;
    const npm = npmCli ? [process.execPath, npmCli] : ['npm'];
    const installed = spawnSync(
      npm[0]!,
      [...npm.slice(1), 'install', '--offline', '--no-audit', '--no-fund', join(out, TARBALL)],
      {
        cwd: project,
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    t.equal(installed.status, 0, installed.stderr);
    t.same(
      readdirSync(join(project, 'node_modules')).filter((f) => !f.startsWith('.')),
      ['sms-gateway-client'],
      'node_modules holds that one package and nothing else',
    );

    // It runs: the package loads on its own and its client answers (an unreachable gateway here).
    const run = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        "import { createClient, GatewayError } from 'sms-gateway-client'; const gw = createClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k', maxRetries: 0 }); gw.health().catch((e) => console.log(e instanceof GatewayError, e.code));",
      ],
      { cwd: project, encoding: 'utf8', timeout: 30_000 },
    );
    t.equal(run.stdout.trim(), 'true unreachable', run.stderr);

    // The docs/api.md snippet, as written, under strict.
    const snippet = readmeSnippet();
    writeFileSync(join(project, 'send.mts'), snippet);
    const checked = typeCheck(project, 'send.mts');
    t.same(checked.errors, [], 'the docs/api.md snippet compiles under strict');
    t.ok(
      checked.resolved?.startsWith(join(project, 'node_modules')),
      `the types came from the installed package (${checked.resolved})`,
    );
    // The check can fail: a wrong field is an error.
    writeFileSync(
      join(project, 'wrong.mts'),
      `${snippet}\nconst n: number = (await gw.send({ to: '1', message: 'x' })).messageId;\n`,
    );
    t.match(typeCheck(project, 'wrong.mts').errors.join('\n'), /Type 'string' is not assignable to type 'number'/);

    t.match(clientSection(), `dist-client/${TARBALL}`, 'docs/api.md names the tarball this version builds');
  },
);
