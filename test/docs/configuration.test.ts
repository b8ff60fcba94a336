// docs/configuration.md and .env.example against the code's own list of variables (the zod
// schema of src/core/config.ts, which spreads in src/core/mqtt-settings.ts): every variable
// is in both, nothing unknown is in either, and each default the page states is the one the
// schema gives an empty environment.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { homedir } from 'node:os';
import { EnvSchema } from '../../src/core/config.js';
import { resolveHome } from '../../src/core/home.js';
import { ROOT } from '../helpers/paths.js';

interface Row {
  name: string;
  defaultCell: string;
}

/** The rows of the page's variable table. */
export function tableRows(page: string): Row[] {
  return [...page.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)].map((m) => ({ name: m[1]!, defaultCell: m[2]!.trim() }));
}

/** Every VARIABLE= line of .env.example, commented out or not. */
export function exampleNames(example: string): string[] {
  return [...example.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]!);
}

const known = Object.keys(EnvSchema.shape).sort();
const page = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
const example = readFileSync(join(ROOT, '.env.example'), 'utf8');

t.test('the page documents every variable of the schema, and nothing else', async (t) => {
  const rows = tableRows(page).map((r) => r.name);
  t.same([...rows].sort(), known, 'the table rows are exactly the schema keys');
  t.equal(new Set(rows).size, rows.length, 'no variable twice');
});

t.test('.env.example lists every variable of the schema, and nothing else', async (t) => {
  const names = exampleNames(example);
  t.same([...new Set(names)].sort(), known);
});

t.test("each default on the page is the schema's default for an empty environment", async (t) => {
  const parsed = EnvSchema.parse({}) as Record<string, unknown>;
  // The home's default is resolveHome's (src/core/home.ts), not the schema's.
  const rows = tableRows(page);
  const home = rows.find((r) => r.name === 'SMS_GATEWAY_HOME');
  t.equal(home?.defaultCell, '`~/.sms-gateway`');
  t.equal(resolveHome({}), join(homedir(), '.sms-gateway'), 'and that is where an unset SMS_GATEWAY_HOME puts it');
  for (const { name, defaultCell } of rows.filter((r) => r !== home)) {
    const value = parsed[name];
    const scalar = typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
    if (scalar) t.equal(defaultCell, `\`${String(value)}\``, `${name} defaults to ${String(value)}`);
    else t.match(defaultCell, /^\(/, `${name} has no scalar default (${JSON.stringify(value)}): the page says so in parentheses`);
  }
});

t.test('the check fails on an unknown or a missing variable', async (t) => {
  const extra = tableRows(`${page}\n| \`SMS_GATEWAY_NOTHING\` | \`1\` | x |\n`).map((r) => r.name).sort();
  t.not(extra, known);
  t.notSame(extra, known);
  t.notSame(exampleNames(example.replace(/^SMS_GATEWAY_QUEUE_RATE=.*$/m, '')).sort(), known);
});
