// GET /logs?from&to: the gateway's kept warnings and errors (status/log-keeper.ts, the newest
// 1000, kept across restarts) in SMSGate's shape, oldest first, logged from `from` (default: the
// oldest) to `to` (default: now), both inclusive, as SMSGate's app selects them.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../core/clock.js';
import type { LogKeeper } from '../../status/log-keeper.js';
import type { LogEntryRow } from '../../store/log-entries.js';
import { json } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';
import { SMSGATE_ROUTE, smsgateErrors } from './docs.js';
import { SmsgateLogEntrySchema } from './system-schemas.js';

const time = z.iso.datetime({ offset: true, error: 'must be an ISO 8601 date-time with Z or an offset' });

const LogsQuery = z
  .object({
    from: time.optional().describe('Logged at or after this time; default: the oldest kept'),
    to: time.optional().describe('Logged at or before this time; default: now'),
  })
  .refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), {
    path: ['from'],
    error: 'must not be after to',
  });

const EXAMPLE = [
  {
    id: 41,
    priority: 'WARN' as const,
    module: 'webhooks',
    message: 'webhook target answered 410 Gone: switched off',
    context: { target: 'wh_01jd8k2m3n4p5q6r7s8t9v0w1x' },
    createdAt: '2026-11-21T12:00:00.000Z',
  },
];

function smsgateLogEntry(row: LogEntryRow) {
  let context: Record<string, unknown> | null;
  try {
    context = row.context === null ? null : (JSON.parse(row.context) as Record<string, unknown>);
  } catch {
    context = null;
  }
  const { id, priority, module, message } = row;
  return { id, priority, module, message, context, createdAt: new Date(row.at).toISOString() };
}

function logsRoutes(deps: { clock: Clock; logs: Pick<LogKeeper, 'range'> }): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/logs',
      {
        schema: {
          ...SMSGATE_ROUTE,
          operationId: 'smsgateListLogs',
          summary: "The gateway's newest 1000 warnings and errors, oldest first",
          description:
            'Kept in the database across restarts; each with the part it concerns ' +
            '(module: messages, webhooks, inbox, ' +
            'mqtt, email, http or gateway) and the fields it was logged with (context), which never hold a key, a ' +
            'secret, a message text or a webhook URL path.',
          querystring: LogsQuery,
          response: {
            200: json('The entries in the range.', z.array(SmsgateLogEntrySchema), EXAMPLE),
            ...smsgateErrors({ 400: 'from or to is not an ISO 8601 date-time, or from is after to.' }),
          },
        },
      },
      async (request) => {
        const { from, to } = request.query;
        const rows = deps.logs.range(
          from === undefined ? 0 : Date.parse(from),
          to === undefined ? deps.clock.now() : Date.parse(to),
        );
        return rows.map(smsgateLogEntry);
      },
    );
  };
}

export const routes: RouteFile = ({ clock, status }) => logsRoutes({ clock, logs: status.logs });
