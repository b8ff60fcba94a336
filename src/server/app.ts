// buildApp(deps): the Fastify instance with its hooks and routes. It never listens
// (the start command does). The guards (http/guards.ts: local-network 403 -> per-caller
// rate limit 429 -> bearer key 401) are one shared onRequest hook, asked again by the
// frameworkErrors path (http/unroutable.ts) and by Node's parser errors, which skip every
// hook. zod's compilers are Fastify's (ajv and fast-json-stringify are never loaded). GET
// /openapi.json serves the document written at build time (server/openapi-build.ts);
// only that build registers @fastify/swagger (`openApi: 'generate'`).
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import { createGuards, guardHook } from '../http/guards.js';
import { BODY_LIMIT, installErrorHandling } from '../http/errors.js';
import { strictJsonBodies } from '../http/json-body.js';
import { logRequestLines } from '../http/request-line.js';
import { answerUnroutable } from '../http/unroutable.js';
import { answerParserError } from '../http/parser-errors.js';
import { healthRoutes } from '../http/routes/health.js';
import { builtDocument, openapiRoutes } from '../http/routes/openapi.js';
import { sendRoutes } from '../http/routes/send.js';
import { messageRoutes } from '../http/routes/messages.js';
import { statsRoutes } from '../http/routes/stats.js';
import type { SendService } from '../sms/send.js';
import type { Enqueue } from '../sms/enqueue.js';
import { queueRoutes } from '../http/routes/queue.js';
import { floodServer, type SlowReaderReason } from '../http/flood/flood-server.js';
import type { MessageStore } from '../store/messages.js';
import type { StatsStore } from '../store/stats.js';
import type { Calendar } from '../core/time-zone.js';
import { deviceRoutes, type DeviceRoutesDeps } from '../http/routes/device.js';
import { inboxRoutes, type InboxRoutesDeps } from '../http/routes/inbox.js';
import { webhookRoutes, type WebhookRoutesDeps } from '../http/routes/webhooks.js';
import { metricsRoutes } from '../http/routes/metrics.js';
import { keyRoutes } from '../http/routes/key.js';
import { consoleRoutes } from '../http/routes/console.js';
import { optOutRoutes, type OptOutRoutesDeps } from '../http/routes/opt-outs.js';
import { ruleRoutes, type RuleRoutesDeps } from '../http/routes/rules.js';
import { receiverRoutes } from '../http/routes/receivers.js';
import type { AlertIntake } from '../sms/alert-intake.js';

export { BODY_LIMIT } from '../http/errors.js';

export interface AppDeps {
  clock: Clock;
  runtime: RuntimeInfo;
  /** The current API key (re-read after a rotation). */
  apiKey: () => string;
  /** Writes a new API key and returns it (POST /api/key/rotate). */
  rotateKey: () => string;
  sendService: SendService;
  enqueue: Enqueue;
  messages: MessageStore;
  stats: StatsStore;
  calendar: () => Calendar;
  status: DeviceRoutesDeps;
  inbox: InboxRoutesDeps;
  optOuts: OptOutRoutesDeps;
  rules: RuleRoutesDeps;
  webhooks: WebhookRoutesDeps;
  /** The alert receivers (POST /api/receivers/alertmanager, /grafana). */
  receivers: AlertIntake;
  /** GET /metrics: every series, in the Prometheus text format (status/metrics.ts). */
  scrapeMetrics: () => Promise<string>;
  /** A connection closed for not reading its answers (http/flood/), for /metrics. */
  slowReaderClosed?: ((reason: SlowReaderReason) => void) | undefined;
  logger?: Logger | undefined;
}

export interface BuildOptions {
  /** 'generate': register @fastify/swagger and serve its document (the build does this once). */
  openApi?: 'file' | 'generate';
}

/** Fastify names ajv's and fast-json-stringify's compilers unless the schema controller names builders. */
function zodCompilersOnly(): never {
  throw new Error("a default schema compiler was asked for: buildApp sets zod's with setValidatorCompiler and setSerializerCompiler");
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const guards = createGuards(deps.clock, deps.apiKey);
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
  installErrorHandling(app);
  app.addHook('onRequest', guardHook(guards));
  logRequestLines(app, deps.logger);
  await registerRoutes(app, deps, options);
  return app;
}

/** Every route, and GET /openapi.json's document (built at build time, or generated here). */
async function registerRoutes(app: FastifyInstance, deps: AppDeps, options: BuildOptions): Promise<void> {
  let document: () => unknown = builtDocument(deps.runtime.version);
  if (options.openApi === 'generate') {
    const [{ default: swagger }, { openApiOptions }] = await Promise.all([import('@fastify/swagger'), import('../http/openapi-document.js')]);
    await app.register(swagger, openApiOptions(deps.runtime.version));
    document = () => app.swagger();
  }

  await app.register(healthRoutes(deps.runtime));
  await app.register(openapiRoutes(document));
  await app.register(sendRoutes(deps.sendService, BODY_LIMIT));
  await app.register(queueRoutes(deps.enqueue, BODY_LIMIT));
  await app.register(messageRoutes(deps.messages));
  await app.register(statsRoutes(deps.stats, deps.calendar, deps.clock));
  await app.register(deviceRoutes(deps.status));
  await app.register(inboxRoutes(deps.inbox));
  await app.register(webhookRoutes(deps.webhooks, BODY_LIMIT));
  await app.register(metricsRoutes(deps.scrapeMetrics));
  await app.register(keyRoutes({ rotate: deps.rotateKey, logger: deps.logger }));
  await app.register(consoleRoutes());
  await app.register(optOutRoutes(deps.optOuts, BODY_LIMIT));
  await app.register(ruleRoutes(deps.rules, BODY_LIMIT));
  await app.register(receiverRoutes(deps.receivers));
}
