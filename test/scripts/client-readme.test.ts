// The client package's README (scripts/client-readme.mjs) shows every method of
// createClient, each with a one-line example `gw.<method>(...)`, and its examples
// type-check against the client under strict.
import t from 'tap';
import { join } from 'node:path';
import ts from 'typescript';
import { createClient } from '../../src/client.js';
import { ROOT } from '../helpers/paths.js';

const modulePath = join(ROOT, 'scripts/client-readme.mjs');
const { clientReadme } = (await import(modulePath)) as { clientReadme: (name: string, version: string) => string };
const readme = clientReadme('sms-gateway-client', '9.9.9');

t.test('every method of createClient has its one-line example', async (t) => {
  const methods = Object.keys(createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'x' }));
  t.ok(methods.length >= 13, 'the methods are read from the client');
  const missing = methods.filter(
    (m) =>
      !new RegExp(`^(?:const \\w+ = |)(?:await )?gw\\.${m}(?:<[^\\n(]*>)?\\(.*\\);?(?: *//.*)?$`, 'm').test(readme),
  );
  t.same(missing, [], 'no method left out');
});

t.test("the README's TypeScript blocks type-check against the client (strict)", async (t) => {
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1]!);
  t.ok(blocks.length > 0);
  const code = blocks
    .join('\n')
    .replace(/from 'sms-gateway-client'/g, `from ${JSON.stringify(join(ROOT, 'src/client.ts'))}`);
  const file = join(ROOT, 'test/scripts/__client-readme-example.ts');
  const host = ts.createCompilerHost({});
  const read = host.getSourceFile;
  host.getSourceFile = (name, ...rest) =>
    name === file
      ? ts.createSourceFile(name, `export {};\n${code}`, ts.ScriptTarget.Latest, true)
      : read.call(host, name, ...rest);
  host.fileExists = (
    (exists) => (name: string) =>
      name === file || exists(name)
  )(host.fileExists);
  const prog = ts.createProgram(
    [file],
    {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
      types: ['node'],
    },
    host,
  );
  const errors = ts.getPreEmitDiagnostics(prog, prog.getSourceFile(file));
  t.same(
    errors.map((e) => ts.flattenDiagnosticMessageText(e.messageText, '\n')),
    [],
    'compiles',
  );
});
