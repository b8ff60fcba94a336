// The build's step that writes GET /openapi.json (scripts/build.mjs imports the bundled
// dist/openapi-build.js): the app is built with @fastify/swagger (`openApi: 'generate'`)
// on placeholder parts that no request reaches, and the route's own answer is the
// document's text, byte for byte what the gateway then serves from dist/openapi.json.
import { systemClock } from '../core/clock.js';
import { buildApp, type AppDeps } from './app.js';

const KEY = 'openapi-build';

/** Parts no handler runs with: building the routes reads none of them (a route reads its services when asked). */
function placeholderDeps(version: string): AppDeps {
  const unused = {} as never;
  return {
    clock: systemClock,
    runtime: { version, mode: 'simulated', simulation: 'success', smsEnabled: true, startedAt: 0 },
    config: unused,
    apiKey: { current: () => KEY, rotate: () => KEY },
    calendar: unused,
    sending: unused,
    webhooks: unused,
    inbox: unused,
    status: unused,
  };
}

/** GET /openapi.json's body for this version, from the routes' schemas. */
export async function openApiDocumentText(version: string): Promise<string> {
  const app = await buildApp(placeholderDeps(version), { openApi: 'generate' });
  try {
    const res = await app.inject({
      url: '/openapi.json',
      remoteAddress: '127.0.0.1',
      headers: { authorization: `Bearer ${KEY}` },
    });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
    return res.body;
  } finally {
    await app.close();
  }
}
