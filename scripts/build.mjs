#!/usr/bin/env node
// npm run build (also `prepare`, so `npm install` runs it, and `pretest`): bundles the
// gateway with esbuild into dist/ and writes what it serves as files. One list of targets;
// `node scripts/build.mjs [target ...]` builds the named ones (default: app).
//   app    src/main.ts (the CLI, run by bin/sms-gateway), then src/index.ts and
//          src/client.ts (the package's exports), as ES modules with shared chunks; every
//          dynamic import (CLI commands, MQTT, the start screen's QR code) is a chunk loaded
//          only when used. Native and optional packages stay external and load from node_modules.
//          Then dist/openapi.json (GET /openapi.json, generated here from the routes'
//          schemas, so the gateway never loads @fastify/swagger) and the .d.ts types
//          (tsc --emitDeclarationOnly: the package's "types").
//   bench  scripts/bench.ts, bare-server.ts and spawn-floor.ts into dist-scripts/ (packages
//          external: bare Fastify is the installed one, as a user would run it).
// Nothing runs through a shell.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

// Kept out of the bundle: native code (better-sqlite3), MQTT.js (its own tree, loaded only
// when SMS_GATEWAY_MQTT_URL is set), and Fastify's default compilers (ajv,
// fast-json-stringify), which zod's compilers replace (server/app.ts): never loaded.
const EXTERNAL = ['better-sqlite3', 'mqtt', '@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler'];

// CommonJS packages inside an ES module bundle still call require(): give them one.
const REQUIRE_BANNER =
  "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);";

// zod's error messages in 60-odd languages, every one imported by zod's index: the gateway
// answers in English (zod's default, `en`), so only that one is bundled. The rest was 490 KB
// of the 665 KB zod chunk, parsed at every start.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
    }));
  },
};

// pino's worker-thread transports (pino.transport(): thread-stream, and node:worker_threads
// for it and for pino's isMainThread check), which the gateway never uses: it writes its log
// to its own stream (core/logging.ts). Left out of `start`'s bundle only (always the main
// thread); about 5 ms of a cold start's CPU was loading node:worker_threads and thread-stream.
const pinoWithoutTransports = {
  name: 'pino-without-transports',
  setup(build) {
    const fromPino = (args) => /[\\/]node_modules[\\/](pino|thread-stream)[\\/]/.test(args.importer);
    build.onResolve({ filter: /^(thread-stream|worker_threads|node:worker_threads)$/ }, (args) =>
      fromPino(args) ? { path: args.path, namespace: 'pino-without-transports' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'pino-without-transports' }, (args) => ({
      contents:
        args.path === 'thread-stream'
          ? "module.exports = class ThreadStream { constructor() { throw new Error('pino transports are not " +
            "bundled: the gateway writes its log itself'); } };"
          : 'module.exports = { isMainThread: true };',
      loader: 'js',
    }));
  },
};

// The CLI's run leaves `start`'s entry (src/cli/start-entry.ts) to a run of its own, and
// imports it at run time from beside dist/main.js.
const startEntryApart = {
  name: 'start-entry-apart',
  setup(build) {
    build.onResolve({ filter: /^\.\/cli\/start-entry\.js$/ }, () => ({ path: './start-entry.js', external: true }));
  },
};

// A new database's schema in one step (src/store/fresh-schema.ts): what the migrations make in
// an empty in-memory database, written into the bundle in place of the source's empty value.
let freshSchemaText;
async function freshSchemaModule() {
  if (freshSchemaText) return freshSchemaText;
  const { outputFiles } = await esbuild.build({
    stdin: {
      contents:
        "export { MIGRATIONS } from './src/store/migrations.ts'; export { schemaSnapshot } from './src/store/schema-snapshot.ts';",
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const { MIGRATIONS, schemaSnapshot } = await import(
    `data:text/javascript;base64,${Buffer.from(outputFiles[0].text).toString('base64')}`
  );
  const Database = require('better-sqlite3');
  const db = new Database(':memory:');
  try {
    freshSchemaText = `export const FRESH_SCHEMA = ${JSON.stringify(schemaSnapshot(db, MIGRATIONS))};\n`;
  } finally {
    db.close();
  }
  return freshSchemaText;
}
const freshSchema = {
  name: 'fresh-schema',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]store[\\/]fresh-schema\.ts$/ }, async () => ({
      contents: await freshSchemaModule(),
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: 'linked',
  logLevel: 'warning',
  banner: { js: REQUIRE_BANNER },
  absWorkingDir: ROOT,
};

/** The app's bundles: the same settings, one esbuild run each (see TARGETS.app). */
const appBuild = (entryPoints, plugins = []) => ({
  ...common,
  entryPoints,
  outdir: 'dist',
  outbase: 'src',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  external: EXTERNAL,
  plugins: [zodEnglishOnly, freshSchema, ...plugins],
  metafile: true,
  // Less to parse at every start: whitespace and comments out, shorter equivalent syntax
  // (the start path's chunks 1.83 MB -> 1.23 MB). Names stay (no minifyIdentifiers), so
  // stack traces, log lines and Fastify's plugin names read as in the source; the linked
  // source maps give the lines.
  minifyWhitespace: true,
  minifySyntax: true,
});

export const TARGETS = {
  app: {
    clean: ['dist'],
    // Three runs. `start`'s entry (src/cli/start-entry.ts) alone, so what a start loads is one
    // file and the chunks it shares only with the gateway's lazy parts (SMTP, MQTT, the QR
    // code); bundled with the other commands it was split by what each of them shares (31
    // chunks to resolve and link before the first answer; each costs Node's loader about
    // 0.3 ms of CPU). The rest of the CLI (src/main.ts, the router, the other commands), and
    // the package's exports with the OpenAPI build's entry. No process loads two of them: a
    // program imports the package, the CLI runs one command.
    builds: [
      appBuild(['src/cli/start-entry.ts'], [pinoWithoutTransports]),
      appBuild(['src/main.ts'], [startEntryApart]),
      appBuild(['src/index.ts', 'src/client.ts', 'src/server/openapi-build.ts']),
    ],
    after: [writeOpenApiDocument, writeDeclarations],
  },
  bench: {
    clean: ['dist-scripts'],
    builds: [
      {
        ...common,
        entryPoints: ['scripts/bench.ts', 'scripts/bare-server.ts', 'scripts/spawn-floor.ts'],
        outdir: 'dist-scripts',
        packages: 'external',
      },
    ],
    after: [],
  },
};

/** GET /openapi.json's exact body, from the built routes (dist/openapi-build.js). */
async function writeOpenApiDocument() {
  const { openApiDocumentText } = await import(pathToFileURL(join(ROOT, 'dist/openapi-build.js')).href);
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(ROOT, 'dist/openapi.json'), await openApiDocumentText(version));
}

/** The .d.ts files of dist/ (package.json "types"), from the TypeScript compiler. */
function writeDeclarations() {
  const tsc = require.resolve('typescript/bin/tsc');
  const r = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--emitDeclarationOnly'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`tsc --emitDeclarationOnly failed (${r.status ?? r.signal})`);
}

export async function build(name) {
  const target = TARGETS[name];
  if (!target) throw new Error(`unknown target ${name} (known: ${Object.keys(TARGETS).join(', ')})`);
  for (const dir of target.clean) rmSync(join(ROOT, dir), { recursive: true, force: true });
  // One meta.json per output folder, the runs' metafiles merged (their outputs never overlap
  // by name: a chunk's name carries its content's hash).
  const metas = new Map();
  for (const options of target.builds) {
    const { metafile } = await esbuild.build(options);
    if (!metafile) continue;
    const meta = metas.get(options.outdir) ?? { inputs: {}, outputs: {} };
    Object.assign(meta.inputs, metafile.inputs);
    Object.assign(meta.outputs, metafile.outputs);
    metas.set(options.outdir, meta);
  }
  for (const [outdir, meta] of metas) writeFileSync(join(ROOT, outdir, 'meta.json'), JSON.stringify(meta));
  for (const step of target.after) await step();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2);
  try {
    for (const name of names.length > 0 ? names : ['app']) await build(name);
  } catch (err) {
    process.stderr.write(`build: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
