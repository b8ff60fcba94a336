// The routes table (src/http/routes/index.ts) is the folder: every file of src/http/routes is
// in it under its own name, as the `routes` it exports, so a route file dropped there is
// registered by server/app.ts without an edit there; and every route each file declares is
// served by the composed gateway and documented in /openapi.json (the console's files are
// hidden from it on purpose).
import t from 'tap';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { ROUTE_FILES } from '../../src/http/routes/index.js';
import type { RouteParts } from '../../src/http/route-parts.js';
import { openApiDocumentText } from '../../src/server/openapi-build.js';
import { VERSION } from '../../src/core/package-root.js';
import { ROOT } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const ROUTES_DIR = join(ROOT, 'src/http/routes');
const routeFileNames = () =>
  readdirSync(ROUTES_DIR)
    .filter((f) => f.endsWith('.ts') && f !== 'index.ts')
    .map((f) => f.slice(0, -'.ts'.length))
    .sort();

/** Parts no handler runs with: a route file reads its services when a request asks. */
const placeholderParts = (): RouteParts => {
  const unused = {} as never;
  return {
    clock: unused,
    runtime: { version: VERSION, mode: 'simulated', simulation: 'success', smsEnabled: true, startedAt: 0 },
    config: unused,
    apiKey: unused,
    calendar: unused,
    sending: unused,
    webhooks: unused,
    inbox: unused,
    status: unused,
    openApiDocument: unused,
  };
};

interface Declared {
  method: string;
  url: string;
  hidden: boolean;
}

/** The routes a file declares, registered alone on a bare app. */
async function declaredBy(name: string): Promise<Declared[]> {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const declared: Declared[] = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const hidden = route.schema?.hide === true;
    for (const method of methods) if (method !== 'HEAD') declared.push({ method, url: route.url, hidden });
  });
  await app.register(ROUTE_FILES[name]!(placeholderParts()));
  await app.ready();
  await app.close();
  return declared;
}

t.test('every file of src/http/routes is in the routes table, as the routes it exports', async (t) => {
  const names = routeFileNames();
  t.same(Object.keys(ROUTE_FILES).sort(), names, 'the table names each file of the folder, and nothing else');
  for (const name of names) {
    const file = (await import(join(ROUTES_DIR, `${name}.ts`))) as { routes?: unknown };
    t.type(file.routes, 'function', `${name}.ts exports routes`);
    t.equal(ROUTE_FILES[name], file.routes, `${name}: the table holds that file's routes`);
  }
});

t.test('every route of every route file is served by the gateway and documented in /openapi.json', async (t) => {
  const { app } = await testApp(t);
  const doc = JSON.parse(await openApiDocumentText(VERSION)) as { paths: Record<string, Record<string, unknown>> };
  const documented = new Set<string>();
  for (const name of routeFileNames()) {
    const declared = await declaredBy(name);
    t.ok(declared.length > 0, `${name}.ts declares routes`);
    for (const { method, url, hidden } of declared) {
      t.ok(app.hasRoute({ method: method as 'GET', url }), `${method} ${url} (${name}.ts) is served`);
      if (hidden) continue;
      const path = url.replace(/:(\w+)/g, '{$1}');
      t.ok(doc.paths[path]?.[method.toLowerCase()], `${method} ${url} (${name}.ts) is in /openapi.json`);
      documented.add(`${method.toLowerCase()} ${path}`);
    }
  }
  const inDocument = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
  t.same(
    inDocument.filter((op) => !documented.has(op)),
    [],
    'the document names no route outside the route files',
  );
});
