// docs/api.md is complete: its errors table has every error code with the status of the
// one table (src/http/error-status.ts), and its routes table every operation /openapi.json
// declares, nothing more.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STATUS_OF } from '../../src/http/error-status.js';
import { ROOT } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const page = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

/** The text under one `## ` heading. */
function section(heading: string): string {
  const start = page.indexOf(`## ${heading}\n`);
  if (start === -1) throw new Error(`docs/api.md has no "## ${heading}"`);
  const end = page.indexOf('\n## ', start + 1);
  return page.slice(start, end === -1 ? undefined : end);
}

t.test('the errors table: every code, each with its status, nothing else', async (t) => {
  const rows = [...section('What errors can I get?').matchAll(/^\| (\d{3}) \| `(\w+)` \|/gm)].map((m) => [m[2]!, Number(m[1])] as const);
  t.same(Object.fromEntries(rows), STATUS_OF);
  t.equal(rows.length, Object.keys(STATUS_OF).length, 'no code twice');
});

t.test('the routes table: every operation of /openapi.json, nothing else', async (t) => {
  const { get } = await testApp(t);
  const doc = (await get('/openapi.json')).json() as { paths: Record<string, Record<string, unknown>> };
  const declared = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
  const listed = [...section('Which routes are there?').matchAll(/^\| `(\w+ \S+)` \|/gm)].map((m) => m[1]!);
  t.same([...listed].sort(), [...declared].sort());
});
