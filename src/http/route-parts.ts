// What a route file is given and what it exports. Every file in http/routes/ exports `routes`,
// a RouteFile: from the parts' handles (RouteParts) it builds its Fastify plugin, taking the
// services it serves and nothing else. http/routes/index.ts lists the files in the order they
// register; server/app.ts registers that list after the guards' hook. A service a part gains
// reaches the routes through its part's handle: no list of services is kept twice.
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { SecretFile } from '../core/keys.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { EventsPart } from '../events/events-part.js';
import type { InboxPart } from '../events/inbox-part.js';
import type { SendingPart } from '../sms/sending-part.js';
import type { StatusPart } from '../status/status-part.js';

/** The parts' handles, as the composition root (server/compose.ts) built them. */
export interface RouteParts {
  /** The watched clock (core/clock-watch.ts), like every part's. */
  clock: Clock;
  runtime: RuntimeInfo;
  config: Config;
  logger?: Logger | undefined;
  /** The API key: the current one (re-read after a rotation), and its rotation. */
  apiKey: Pick<SecretFile, 'current' | 'rotate'>;
  /** The phone's calendar (its time zone). */
  calendar: () => Calendar;
  sending: SendingPart;
  webhooks: EventsPart;
  inbox: InboxPart;
  status: StatusPart;
  /** GET /openapi.json's body: the built file's text, or the document itself (server/app.ts sets it). */
  openApiDocument: () => unknown;
}

/** What a route file exports as `routes`: its plugin, built from the parts it serves. */
export type RouteFile = (parts: RouteParts) => FastifyPluginAsyncZod | FastifyPluginAsync;
