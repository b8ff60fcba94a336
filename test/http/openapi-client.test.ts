// A client generated from GET /openapi.json accepts the docs' own calls: the types come
// from openapi-typescript (its Node API, offline), every curl call of docs/api.md, sending.md and receiving.md
// (the API's pages) becomes an openapi-fetch call (method, path, query, Idempotency-Key, body) with
// the docs' answer typed as its result, the openapi-fetch snippet of docs/api.md is checked as
// written, and the TypeScript compiler (strict) must report nothing. A wrong call must fail.
import t from 'tap';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import openapiTS, { astToString } from 'openapi-typescript';
import { ROOT, tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

interface Doc {
  paths: Record<
    string,
    Record<string, { operationId: string; parameters?: { name: string; in: string; schema: { type?: string } }[] }>
  >;
}

interface Call {
  line: number;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  status?: number;
  answer?: unknown;
}

/** The API's pages, one after another: the reference, sending and receiving. */
function apiPages(): string {
  return ['api.md', 'sending.md', 'receiving.md']
    .map((page) => readFileSync(join(ROOT, 'docs', page), 'utf8'))
    .join('\n');
}

/** Shell words of one command: single and double quotes, backslash-newline continuations. */
function words(command: string): string[] {
  const out: string[] = [];
  const re = /'([^']*)'|"([^"]*)"|(\S+)/g;
  for (const m of command.replace(/\\\n/g, ' ').matchAll(re)) out.push(m[1] ?? m[2] ?? m[3]!);
  return out;
}

/** Every curl call of the section's sh blocks, with the answer printed below it when it is whole JSON. */
function readmeCalls(section: string): Call[] {
  const calls: Call[] = [];
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)];
  for (const block of blocks) {
    const lines = block[1]!.split('\n');
    const at = section.slice(0, block.index).split('\n').length;
    for (let i = 0; i < lines.length; i++) {
      if (!lines[i]!.startsWith('curl ')) continue;
      let j = i;
      const command: string[] = [];
      while (
        j < lines.length &&
        lines[j] !== '' &&
        !lines[j]!.startsWith('#') &&
        (j === i || !lines[j]!.startsWith('curl '))
      )
        command.push(lines[j++]!);
      const comment: string[] = [];
      while (j < lines.length && lines[j]!.startsWith('#')) comment.push(lines[j++]!.replace(/^#\s*/, ''));
      const w = words(command.join('\n'));
      const call: Call = { line: at + i, method: 'GET', url: '', headers: {} };
      for (let k = 1; k < w.length; k++) {
        if (w[k] === '-X') call.method = w[++k]!;
        else if (w[k] === '-H') {
          const [name, ...value] = w[++k]!.split(':');
          call.headers[name!.trim()] = value.join(':').trim();
        } else if (w[k] === '-d') call.body = JSON.parse(w[++k]!);
        else if (w[k]!.startsWith('$GW')) call.url = w[k]!.slice(3);
      }
      const printed = comment.join(' ').match(/^(?:(\d{3}) )?(\{.*\})$/);
      if (printed) {
        if (printed[1]) call.status = Number(printed[1]);
        try {
          call.answer = JSON.parse(printed[2]!);
        } catch {
          // abbreviated with "..." in the docs: the call is still checked, not its answer
        }
      }
      calls.push(call);
    }
  }
  return calls;
}

/** One openapi-fetch call per call in the docs, each in its own function. */
function callsSource(doc: Doc, calls: Call[]): string {
  const parts = [
    `import createClient from 'openapi-fetch';`,
    `import type { paths } from './sms-gateway.js';`,
    `const gw = createClient<paths>({ baseUrl: 'http://192.168.1.50:8080' });`,
  ];
  calls.forEach((call, n) => {
    const [pathname, search] = call.url.split('?') as [string, string | undefined];
    // A literal path before a templated one (POST /api/webhooks/test is not /api/webhooks/{id}).
    const matching = Object.keys(doc.paths).filter((p) =>
      new RegExp(`^${p.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(pathname),
    );
    const template = matching.find((p) => !p.includes('{')) ?? matching[0];
    const op = template ? doc.paths[template]![call.method.toLowerCase()] : undefined;
    if (!template || !op) {
      parts.push(
        `// docs line ${call.line}: ${call.method} ${call.url} is not in the document\nconst missing${n}: never = 'missing';`,
      );
      return;
    }
    const params: Record<string, unknown> = {};
    const path = template.match(/\{([^}]+)\}/g)?.map((p) => p.slice(1, -1)) ?? [];
    if (path.length) {
      const values = pathname.split('/');
      params.path = Object.fromEntries(path.map((name) => [name, values[template.split('/').indexOf(`{${name}}`)]]));
    }
    if (search) {
      const integer = (name: string) =>
        op.parameters?.find((p) => p.in === 'query' && p.name === name)?.schema.type === 'integer';
      params.query = Object.fromEntries(
        [...new URLSearchParams(search)].map(([k, v]) => [k, integer(k) ? Number(v) : v]),
      );
    }
    const header = Object.fromEntries(
      Object.entries(call.headers).filter(([name]) => !/^(authorization|content-type)$/i.test(name)),
    );
    if (Object.keys(header).length) params.header = header;
    // Typed constants first: an object literal with a declared type gets excess-property checks.
    const op_ = `paths['${template}']['${call.method.toLowerCase()}']`;
    const decl: string[] = [];
    for (const [where, value] of Object.entries(params)) {
      decl.push(`  const ${where}: NonNullable<${op_}['parameters']['${where}']> = ${JSON.stringify(value)};`);
    }
    if (call.body !== undefined)
      decl.push(
        `  const body: NonNullable<${op_}['requestBody']>['content']['application/json'] = ${JSON.stringify(call.body)};`,
      );
    const names = [
      ...(Object.keys(params).length ? [`params: { ${Object.keys(params).join(', ')} }`] : []),
      ...(call.body !== undefined ? ['body'] : []),
    ];
    const args = names.length ? `, { ${names.join(', ')} }` : '';
    parts.push(`// docs line ${call.line}: ${call.method} ${call.url}`);
    parts.push(`export async function call${n}() {`, ...decl);
    parts.push(`  const result = await gw.${call.method}('${template}'${args});`);
    if (call.answer !== undefined)
      parts.push(`  const answer: NonNullable<typeof result.data> = ${JSON.stringify(call.answer)};\n  return answer;`);
    parts.push('}');
  });
  return parts.join('\n') + '\n';
}

/** Strict TypeScript diagnostics of the given files, in a directory that sees our node_modules. */
function typeErrors(dir: string, files: string[]): string[] {
  const program = ts.createProgram(
    files.map((f) => join(dir, f)),
    {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      types: ['node'],
      skipLibCheck: true,
    },
  );
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : '';
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
  });
}

async function generatedClient(t: Parameters<typeof testApp>[0]) {
  const { get } = await testApp(t);
  const doc = (await get('/openapi.json')).json() as Doc;
  const dir = tempDir(t, 'smsgw-client-');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  const ast = await openapiTS(doc as never, { silent: true });
  // A .ts file, so the strict check covers the generated types too (skipLibCheck skips only .d.ts).
  writeFileSync(join(dir, 'sms-gateway.ts'), astToString(ast));
  return { doc, dir };
}

t.test("a client generated from the document type-checks the docs' calls", async (t) => {
  const { doc, dir } = await generatedClient(t);
  const section = apiPages();
  const calls = readmeCalls(section);
  const seen = calls.map(
    (c) => `${c.method} ${c.url.split('?')[0]!.replace(/msg_\w+/, ':id')}${c.answer ? ' (answer)' : ''}`,
  );
  for (const expected of [
    'GET /health (answer)',
    'POST /api/sms/send (answer)',
    'POST /api/messages',
    'DELETE /api/messages/:id',
    'GET /api/messages (answer)',
    'GET /api/messages/:id',
    'GET /api/stats',
    'GET /api/host/info',
    'GET /api/diagnostics',
  ]) {
    t.ok(seen.includes(expected), `the docs show ${expected}`);
  }
  t.match(
    calls.find((c) => c.url.startsWith('/api/messages?')),
    { url: /limit=/ },
    'a history query with limit',
  );
  t.ok(
    calls.some((c) => c.headers['Idempotency-Key']),
    'a call with an Idempotency-Key',
  );
  writeFileSync(join(dir, 'calls.ts'), callsSource(doc, calls));
  // The openapi-fetch snippet (the client package's own snippet is test/scripts/pack-client.test.ts's).
  const snippets = [...section.matchAll(/```ts\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .filter((s) => s.includes("from 'openapi-fetch'"));
  t.equal(snippets.length, 1, 'the openapi-fetch snippet of docs/api.md');
  mkdirSync(join(dir, 'snippet'));
  writeFileSync(join(dir, 'snippet', 'readme.ts'), snippets[0]!);
  symlinkSync(join(dir, 'sms-gateway.ts'), join(dir, 'snippet', 'sms-gateway.ts'));
  const errors = typeErrors(dir, ['calls.ts', 'snippet/readme.ts']);
  t.same(
    errors,
    [],
    errors.length
      ? `type errors:\n${errors.join('\n')}\n${readFileSync(join(dir, 'calls.ts'), 'utf8')}`
      : 'no type errors',
  );
});

t.test('and refuses a wrong one: an unknown field, a string limit, a wrong answer, a missing route', async (t) => {
  const { doc, dir } = await generatedClient(t);
  const wrong: Call[] = [
    { line: 1, method: 'POST', url: '/api/sms/send', headers: {}, body: { to: '+15551234567', message: 'x', sim: 2 } },
    {
      line: 2,
      method: 'GET',
      url: '/api/messages',
      headers: {},
      answer: { success: true, data: [], pagination: { limit: '2', offset: 0, total: 0, hasNext: false } },
    },
    {
      line: 3,
      method: 'GET',
      url: '/api/messages/msg_x',
      headers: {},
      answer: { success: true, data: { id: 'msg_x', status: 'sending' } },
    },
    { line: 4, method: 'GET', url: '/api/nothing', headers: {} },
  ];
  writeFileSync(join(dir, 'calls.ts'), callsSource(doc, wrong));
  const errors = typeErrors(dir, ['calls.ts']);
  const lines = new Set(errors.map((e) => e.match(/^calls\.ts:(\d+)/)?.[1]));
  const source = readFileSync(join(dir, 'calls.ts'), 'utf8').split('\n');
  for (const readmeLine of [1, 2, 3, 4]) {
    const first = source.findIndex((l) => l.startsWith(`// docs line ${readmeLine}:`));
    const end = source.findIndex((l, i) => i > first && l.startsWith('// docs line'));
    const hit = [...lines].some((l) => Number(l) > first + 1 && (end === -1 || Number(l) <= end));
    t.ok(
      hit,
      hit
        ? `wrong call ${readmeLine} is refused`
        : `wrong call ${readmeLine} passed; all errors:\n${errors.join('\n')}`,
    );
  }
});
