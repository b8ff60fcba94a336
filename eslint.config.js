// ESLint for the repository: typescript-eslint's type-aware rules on src/ (server and console)
// and scripts/, the house limits as rules (file and function length in src/, no comma
// sequences, no import cycles), a lighter syntax-only set on test/. Layout is Prettier's job:
// eslint-config-prettier, last, turns off every rule that would disagree with it.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';
import { noImportCycle } from './scripts/lint/no-import-cycle.mjs';

const local = { rules: { 'no-import-cycle': noImportCycle } };

export default defineConfig(
  { ignores: ['dist/', 'dist-client/', 'dist-scripts/', 'coverage/', '.tap/', 'node_modules/'] },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    languageOptions: { ecmaVersion: 2024, sourceType: 'module' },
  },
  // Every linted file: the recommended sets, no comma sequences, no import cycles.
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local },
    rules: {
      'no-sequences': ['error', { allowInParentheses: false }],
      'local/no-import-cycle': 'error',
    },
  },
  // Type-aware rules where the code ships or builds it: src/ and scripts/*.ts (each file is
  // checked against the tsconfig.json nearest to it, as tsc does).
  {
    files: ['src/**/*.{ts,tsx}', 'scripts/**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Off: `async` is how these functions meet a promise-returning contract (a Fastify handler
      // answers with what it returns, a CLI command, a Sender's send) even when the body has
      // nothing to await; the bugs this rule hints at (a promise left unhandled or passed where
      // a void callback is expected) are caught by no-floating-promises and no-misused-promises.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // The house limits, counted like `wc -l`: every line, blank and comment lines included.
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: {
      'max-lines': ['error', { max: 250, skipBlankLines: false, skipComments: false }],
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }],
      // zod's `z` namespace value keeps all of zod in the bundle (esbuild cannot shake it):
      // `import * as z from 'zod'` lets the build drop what no module uses (a shorter start).
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "ImportDeclaration[source.value='zod'] > :matches(ImportSpecifier[imported.name='z'], ImportDefaultSpecifier)",
          message: "Use `import * as z from 'zod'`: zod's `z` value keeps all of zod in the bundle.",
        },
      ],
    },
  },
  // Plain JavaScript (build scripts, fixtures) runs on Node: its globals, no type information.
  {
    files: ['**/*.{js,mjs,cjs}'],
    extends: [tseslint.configs.disableTypeChecked],
    languageOptions: { globals: nodeGlobals() },
  },
  // CommonJS files (a --require preload among the test fixtures): require() is their import.
  {
    files: ['**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  prettier,
);

/** Node's globals, for the plain JavaScript files (the TypeScript ones get them from @types/node). */
function nodeGlobals() {
  const names = [
    'process',
    'console',
    'Buffer',
    'URL',
    'setTimeout',
    'clearTimeout',
    'setInterval',
    'clearInterval',
    'setImmediate',
    'queueMicrotask',
    'fetch',
    'AbortController',
    'TextEncoder',
    'TextDecoder',
    'structuredClone',
    'performance',
  ];
  return Object.fromEntries(names.map((name) => [name, 'readonly']));
}
