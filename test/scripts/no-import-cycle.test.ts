// scripts/lint/no-import-cycle.mjs (the lint rule for the house's "no import cycles, type-only
// imports included"): a cycle through type-only imports, re-exports and import() types is
// reported with its chain, on the import that starts it; imports that lead nowhere back, a
// package, and an import written in a comment or a string are not.
import t, { type Test } from 'tap';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Linter, type Rule } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../helpers/paths.js';

// A computed URL: the rule is plain JavaScript, with no type declarations to import.
const RULE_URL = pathToFileURL(join(ROOT, 'scripts/lint/no-import-cycle.mjs')).href;
const { noImportCycle } = (await import(RULE_URL)) as { noImportCycle: Rule.RuleModule };

/** Lints `name` in `dir` with the rule alone; its messages as "line: text". */
function lint(dir: string, name: string): string[] {
  const linter = new Linter({ cwd: dir });
  const config: Linter.Config[] = [
    {
      files: ['**/*.ts'],
      languageOptions: { parser: tseslint.parser },
      plugins: { local: { rules: { 'no-import-cycle': noImportCycle } } },
      rules: { 'local/no-import-cycle': 'error' },
    },
  ];
  const file = join(dir, name);
  return linter.verify(readFileSync(file, 'utf8'), config, { filename: file }).map((m) => `${m.line}: ${m.message}`);
}

function tree(t: Test, files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'import-cycle-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

t.test('two files that import each other only for types: both reported, with the chain', async (t) => {
  const dir = tree(t, {
    'a.ts': "import { z } from 'zod';\nimport type { B } from './b.js';\nexport type A = { b: B; z: typeof z };\n",
    'b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
  });
  t.same(lint(dir, 'a.ts'), ['2: Import cycle: a.ts -> b.ts -> a.ts']);
  t.same(lint(dir, 'b.ts'), ['1: Import cycle: b.ts -> a.ts -> b.ts']);
});

t.test('a longer cycle through a re-export and an import() type', async (t) => {
  const dir = tree(t, {
    'a.ts': "export * from './b.js';\n",
    'b.ts': "export type C = import('./c.js').C;\n",
    'c.ts': "import type { C as Self } from './a.js';\nexport type C = { next?: Self };\n",
  });
  t.same(lint(dir, 'a.ts'), ['1: Import cycle: a.ts -> b.ts -> c.ts -> a.ts']);
});

t.test('no cycle: a chain that never comes back, a package, an import in a comment or a string', async (t) => {
  const dir = tree(t, {
    'a.ts': "// import { b } from './b.js';\nimport { c } from './c.js';\nexport const a = `import './b.js'` + c;\n",
    'b.ts': "import { a } from './a.js';\nexport const b = a;\n",
    'c.ts': "import { z } from 'zod';\nexport const c = String(z);\n",
  });
  t.same(lint(dir, 'a.ts'), []);
  t.same(lint(dir, 'c.ts'), []);
});
