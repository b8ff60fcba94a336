#!/usr/bin/env node
// npm run pack:client [-- --out DIR]: builds the client-only package `sms-gateway-client`
// from src/client.ts into DIR (default dist-client/, gitignored) and packs it to
// DIR/sms-gateway-client-<version>.tgz. The package has no dependencies and no native
// build: client.js imports only Node built-ins, and client.d.ts spells out every shape
// (the server's zod schemas are resolved to plain types here), so nothing of the server
// (zod, fastify, better-sqlite3) is referenced. Each step checks that and stops otherwise.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { clientReadme } from './client-readme.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ENTRY = join(ROOT, 'src', 'client.ts');
const NAME = 'sms-gateway-client';

function fail(message) {
  process.stderr.write(`pack-client: ${message}\n`);
  process.exit(1);
}

function parseArgs(argv) {
  const i = argv.indexOf('--out');
  return { out: resolve(i >= 0 && argv[i + 1] ? argv[i + 1] : join(ROOT, 'dist-client')) };
}

/** The repository's compiler options, for src/client.ts alone. */
function program() {
  const file = ts.readConfigFile(join(ROOT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(file.config, ts.sys, ROOT);
  return ts.createProgram([ENTRY], { ...parsed.options, declaration: true, sourceMap: false, declarationMap: false });
}

/** client.js and client.d.ts as tsc emits them for src/client.ts only. */
function emit(prog) {
  const out = {};
  const source = prog.getSourceFile(ENTRY);
  const result = prog.emit(source, (name, text) => {
    if (name.endsWith('client.js')) out.js = text;
    else if (name.endsWith('client.d.ts')) out.dts = text;
  });
  const errors = ts.getPreEmitDiagnostics(prog, source).concat(result.diagnostics);
  if (errors.length > 0)
    fail(
      ts.formatDiagnostics(errors, {
        getCanonicalFileName: (f) => f,
        getCurrentDirectory: () => ROOT,
        getNewLine: () => '\n',
      }),
    );
  if (!out.js || !out.dts) fail('tsc emitted no client.js/client.d.ts');
  return out;
}

/** Each exported type alias of src/client.ts, spelled out as a plain type (no zod, no imports). */
function expandedAliases(prog) {
  const checker = prog.getTypeChecker();
  const source = prog.getSourceFile(ENTRY);
  const flags =
    ts.TypeFormatFlags.NoTruncation |
    ts.TypeFormatFlags.InTypeAlias |
    ts.TypeFormatFlags.UseSingleQuotesForStringLiteralType;
  const aliases = new Map();
  for (const node of source.statements) {
    if (!ts.isTypeAliasDeclaration(node) || node.typeParameters) continue;
    const type = checker.getTypeAtLocation(node.name);
    aliases.set(node.name.text, checker.typeToString(type, node, flags));
  }
  return aliases;
}

/** The emitted client.d.ts without its imports, every alias that used one spelled out. */
function flatten(dts, aliases) {
  const file = ts.createSourceFile('client.d.ts', dts, ts.ScriptTarget.Latest, true);
  const imported = new Set();
  const edits = [];
  for (const node of file.statements) {
    if (ts.isImportDeclaration(node)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) for (const el of bindings.elements) imported.add(el.name.text);
      edits.push({ start: node.getFullStart(), end: node.getEnd(), text: '' });
    }
  }
  const usesImport = (node) => {
    let found = false;
    const visit = (n) => {
      if (ts.isIdentifier(n) && imported.has(n.text)) found = true;
      if (!found) ts.forEachChild(n, visit);
    };
    visit(node);
    return found;
  };
  for (const node of file.statements) {
    if (ts.isTypeAliasDeclaration(node) && usesImport(node.type)) {
      const text = aliases.get(node.name.text);
      if (!text) fail(`cannot spell out the type ${node.name.text}`);
      edits.push({ start: node.type.getStart(), end: node.type.getEnd(), text });
    }
  }
  let out = dts;
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out.replace(/^\n+/, '');
}

/** Stops unless the package stands alone: no imports in the types, only node: built-ins in the code. */
function check(js, dts) {
  const specifiers = [
    ...js.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s*['"]([^'"]+)['"]/gm),
    ...js.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]);
  const foreign = specifiers.filter((s) => !s.startsWith('node:'));
  if (foreign.length > 0) fail(`client.js imports ${foreign.join(', ')}: only node: built-ins are allowed`);
  if (/\bimport\b|\brequire\(|zod|fastify|better-sqlite3/.test(dts))
    fail('client.d.ts still refers to a module of the server');
  // The types must compile alone, under strict, with no @types at all.
  const host = ts.createCompilerHost({});
  const read = host.getSourceFile;
  host.getSourceFile = (name, ...rest) =>
    name === '/client.d.ts'
      ? ts.createSourceFile(name, dts, ts.ScriptTarget.Latest, true)
      : read.call(host, name, ...rest);
  const prog = ts.createProgram(
    ['/client.d.ts'],
    { strict: true, noEmit: true, types: [], lib: ['lib.es2022.d.ts'], target: ts.ScriptTarget.ES2022 },
    host,
  );
  const errors = ts.getPreEmitDiagnostics(prog);
  if (errors.length > 0)
    fail(
      `client.d.ts does not compile alone:\n${ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' })}`,
    );
}

function packageJson(version) {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return {
    name: NAME,
    version,
    description:
      'The typed client for sms-gateway (an SMS gateway on an Android phone): no dependencies, no native build',
    type: 'module',
    license: root.license,
    main: './client.js',
    types: './client.d.ts',
    exports: { '.': { types: './client.d.ts', default: './client.js' } },
    files: ['client.js', 'client.d.ts', 'README.md'],
    engines: root.engines,
    sideEffects: false,
  };
}

const { out } = parseArgs(process.argv.slice(2));
const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const prog = program();
const { js, dts: emitted } = emit(prog);
const dts = flatten(emitted, expandedAliases(prog));
check(js, dts);

// Only what this script wrote before: --out may name a folder that holds other things.
const pkgDir = join(out, 'package');
rmSync(pkgDir, { recursive: true, force: true });
if (existsSync(out)) {
  for (const f of readdirSync(out)) if (/^sms-gateway-client-.*\.tgz$/.test(f)) rmSync(join(out, f), { force: true });
}
mkdirSync(pkgDir, { recursive: true });
writeFileSync(join(pkgDir, 'client.js'), js);
writeFileSync(join(pkgDir, 'client.d.ts'), dts);
writeFileSync(join(pkgDir, 'README.md'), clientReadme(NAME, version));
writeFileSync(join(pkgDir, 'package.json'), `${JSON.stringify(packageJson(version), null, 2)}\n`);

const npm = process.env.npm_execpath
  ? { cmd: process.execPath, args: [process.env.npm_execpath] }
  : { cmd: process.platform === 'win32' ? 'npm.cmd' : 'npm', args: [] };
const packed = spawnSync(npm.cmd, [...npm.args, 'pack', '--silent', '--pack-destination', out], {
  cwd: pkgDir,
  encoding: 'utf8',
});
if (packed.status !== 0) fail(`npm pack failed: ${packed.stderr}`);
const tarball = join(out, packed.stdout.trim().split('\n').pop());
process.stdout.write(`${tarball}\n`);
