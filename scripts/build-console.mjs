// Builds the browser console (src/console/) into dist/console/: app.js (Preact and the
// views, bundled and minified by esbuild), app.css and index.html copied. Run by
// `npm run build` and `npm install` (prepare) after tsc. Fails when the whole console is
// over 100 KB gzip-compressed (the contract's budget).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src/console');
const out = join(root, 'dist/console');
const BUDGET = 100 * 1024;

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(src, 'main.tsx')],
  outfile: join(out, 'app.js'),
  bundle: true,
  minify: true,
  format: 'esm',
  target: ['es2020'],
  platform: 'browser',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  logLevel: 'warning',
});
copyFileSync(join(src, 'index.html'), join(out, 'index.html'));
copyFileSync(join(src, 'app.css'), join(out, 'app.css'));

let total = 0;
for (const f of ['index.html', 'app.js', 'app.css']) total += gzipSync(readFileSync(join(out, f))).length;
if (total > BUDGET) {
  console.error(`console: ${total} bytes gzip-compressed, over the ${BUDGET}-byte budget`);
  process.exit(1);
}
if (process.argv.includes('--size')) console.log(`console: ${total} bytes gzip-compressed`);
