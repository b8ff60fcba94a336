// ESLint rule "local/no-import-cycle": reports a file whose relative imports lead back to itself.
// Every import counts, type-only ones too (`import type`, `export type ... from`, `import('...')`
// types, dynamic import()), since the house rule forbids any cycle. The other files' imports are
// read with TypeScript's own pre-processor (comments and strings are not mistaken for imports);
// packages (bare specifiers) are not followed. A local rule rather than eslint-plugin-import-x's
// no-cycle: this is all the house needs, with no resolver and no native package to install.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

/** How a written specifier may name a source file (NodeNext writes .js for a .ts file). */
const CANDIDATE_SUFFIXES = {
  '.js': ['.ts', '.tsx', '.js'],
  '.mjs': ['.mts', '.mjs'],
  '.cjs': ['.cts', '.cjs'],
  '': ['.ts', '.tsx', '.js', '.mjs', '/index.ts', '/index.tsx', '/index.js'],
};

function resolveRelative(fromFile, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const written = resolve(dirname(fromFile), specifier);
  const extension = Object.keys(CANDIDATE_SUFFIXES).find((ext) => ext !== '' && written.endsWith(ext)) ?? '';
  const stem = written.slice(0, written.length - extension.length);
  const suffixes = CANDIDATE_SUFFIXES[extension];
  if (existsSync(written) && statSync(written).isFile() && extension === '') return written;
  for (const suffix of suffixes) {
    const candidate = stem + suffix;
    if (existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/** Import edges per file, kept for one lint run and re-read when a file's mtime changes. */
function createImportGraph() {
  const edges = new Map();
  return {
    importsOf(file) {
      const mtime = statSync(file).mtimeMs;
      const known = edges.get(file);
      if (known?.mtime === mtime) return known.targets;
      const found = ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles;
      const targets = [];
      for (const { fileName } of found) {
        const target = resolveRelative(file, fileName);
        if (target !== undefined) targets.push({ specifier: fileName, target });
      }
      edges.set(file, { mtime, targets });
      return targets;
    },
  };
}

/** The shortest chain of files from `start` back to `start`, or undefined when there is none. */
function findCycle(graph, start) {
  const cameFrom = new Map([[start, undefined]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = queue.shift();
    for (const { target } of graph.importsOf(file)) {
      if (target === start) {
        const chain = [file];
        while (cameFrom.get(chain[0]) !== undefined) chain.unshift(cameFrom.get(chain[0]));
        return chain;
      }
      if (cameFrom.has(target)) continue;
      cameFrom.set(target, file);
      queue.push(target);
    }
  }
  return undefined;
}

const graph = createImportGraph();

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: "Forbid import cycles between the repository's files, type-only imports included" },
    schema: [],
    messages: { cycle: 'Import cycle: {{chain}}' },
  },
  create(context) {
    const file = context.filename;
    return {
      Program(program) {
        const chain = findCycle(graph, file);
        if (chain === undefined) return;
        const next = chain[1] ?? file;
        const edge = graph.importsOf(file).find(({ target }) => target === next);
        const cwd = context.cwd;
        const names = [...chain, file].map((path) => path.slice(cwd.length + 1));
        const node = findImportNode(program, edge?.specifier) ?? program;
        context.report({ node, messageId: 'cycle', data: { chain: names.join(' -> ') } });
      },
    };
  },
};

/** The statement in this file that names `specifier`, to put the report on it. */
function findImportNode(program, specifier) {
  if (specifier === undefined) return undefined;
  return program.body.find(
    (statement) =>
      (statement.type === 'ImportDeclaration' ||
        statement.type === 'ExportAllDeclaration' ||
        statement.type === 'ExportNamedDeclaration') &&
      statement.source?.value === specifier,
  );
}
