// buildApp(deps): the Fastify instance with its hooks and routes. It never listens
// (the start command does). The guards (http/guards.ts: local-network 403 -> per-caller
// rate limit 429 -> bearer key 401) are one shared onRequest hook, asked again by the
// frameworkErrors path (http/unroutable.ts) and by Node's parser errors, which skip every
// hook. zod's compilers are Fastify's (ajv and fast-json-stringify are never loaded). GET
// /openapi.json serves the document written at build time (server/openapi-build.ts);
// only that build registers @fastify/swagger (`openApi: 'generate'`). The routes are the
// routes table's (http/routes/index.ts), registered after every hook: the guards' order is
// written here and in http/guards.ts, never by a route.
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { createGuards, guardHook } from '../http/guards.js';
import { BODY_LIMIT, installErrorHandling } from '../http/errors.js';
import { notFoundInDialect } from '../http/not-found.js';
import { strictJsonBodies } from '../http/json-body.js';
import { logRequestLines } from '../http/request-line.js';
import { answerUnroutable } from '../http/unroutable.js';
import { answerParserError } from '../http/parser-errors.js';
import { floodServer, type SlowReaderReason } from '../http/flood/flood-server.js';
import { builtDocument } from '../http/routes/openapi.js';
import { ROUTE_FILES } from '../http/routes/index.js';
import type { RouteParts } from '../http/route-parts.js';

/**
 * What the app is built from: the parts' handles its routes serve (http/route-parts.ts; the
 * routes table picks from them), and the slow-reader count for /metrics.
 */
export interface AppDeps extends Omit<RouteParts, 'openApiDocument'> {
  /** A connection closed for not reading its answers (http/flood/), for /metrics. */
  slowReaderClosed?: ((reason: SlowReaderReason) => void) | undefined;
}

export interface BuildOptions {
  /** 'generate': register @fastify/swagger and serve its document (the build does this once). */
  openApi?: 'file' | 'generate';
}

/** Fastify names ajv's and fast-json-stringify's compilers unless the schema controller names builders. */
function zodCompilersOnly(): never {
  throw new Error(
    "a default schema compiler was asked for: buildApp sets zod's with setValidatorCompiler and setSerializerCompiler",
  );
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const guards = createGuards(deps.clock, () => deps.apiKey.current());
  const app = Fastify({
    // A URL the router cannot decode skips every hook, so the guards are asked there.
    frameworkErrors: answerUnroutable(guards),
    loggerInstance: deps.logger as FastifyBaseLogger | undefined,
    // Fastify's own two lines per request are off; http/request-line.ts writes one.
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is the gateway's logger itself, not a child made for every request: the
    // few lines written per request name their reqId themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: BODY_LIMIT,
    trustProxy: false,
    // The Node server with the flood defence (connection ceilings, deadlines, the answer gate).
    serverFactory: floodServer({ clock: deps.clock, onClosed: deps.slowReaderClosed, logger: deps.logger }),
    clientErrorHandler: answerParserError,
    // Builders named, so Fastify never loads ajv or fast-json-stringify; never called: zod's
    // compilers are set right below, with fastify-type-provider-zod's documented calls.
    schemaController: { compilersFactory: { buildValidator: zodCompilersOnly, buildSerializer: zodCompilersOnly } },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  strictJsonBodies(app);
  installErrorHandling(
    app,
    notFoundInDialect(() => deps.apiKey.current()),
  );
  app.addHook('onRequest', guardHook(guards));
  logRequestLines(app, deps.logger);
  await registerRoutes(app, deps, options);
  return app;
}

/** The routes table (http/routes/index.ts), and GET /openapi.json's document (built, or generated here). */
async function registerRoutes(app: FastifyInstance, deps: AppDeps, options: BuildOptions): Promise<void> {
  let openApiDocument: () => unknown = builtDocument(deps.runtime.version);
  if (options.openApi === 'generate') {
    const [{ default: swagger }, { openApiOptions }] = await Promise.all([
      import('@fastify/swagger'),
      import('../http/openapi-document.js'),
    ]);
    await app.register(swagger, openApiOptions(deps.runtime.version));
    openApiDocument = () => app.swagger();
  }
  const parts: RouteParts = { ...deps, openApiDocument };
  for (const routes of Object.values(ROUTE_FILES)) await app.register(routes(parts));
}
