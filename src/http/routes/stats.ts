// GET /api/stats: today, this month and all time, from the daily roll-ups, in the
// phone's time zone (named in the answer). GET /api/stats/daily: each of the last N days
// (the console's chart of sent and failed per day).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../core/clock.js';
import type { StatsStore } from '../../store/stats.js';
import type { Calendar } from '../../core/time-zone.js';
import { DailyStatsQuerySchema, DailyStatsResponseSchema, StatsResponseSchema } from '../schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { dailyStatsExample, statsExample } from '../examples.js';
import type { RouteFile } from '../route-parts.js';

const ZERO = { accepted: 0, sent: 0, failed: 0, cancelled: 0, queued: 0, segments: 0, billedSegments: 0 };

/** The `count` calendar days ending on `last` (YYYY-MM-DD), oldest first. */
export function daysEnding(last: string, count: number): string[] {
  const end = Date.parse(`${last}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

export function statsRoutes(stats: StatsStore, calendar: () => Calendar, clock: Clock): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/stats',
      {
        schema: {
          operationId: 'getStats',
          summary: 'Today, month and all-time counts',
          tags: ['sms'],
          response: {
            200: json('Counts in the named time zone.', StatsResponseSchema, statsExample),
            ...bearerErrors([]),
          },
        },
      },
      async () => {
        const cal = calendar();
        const now = clock.now();
        const date = cal.dayOf(now);
        const month = cal.monthOf(now);
        return {
          success: true as const,
          data: {
            timeZone: cal.timeZone,
            today: { date, ...stats.day(date) },
            month: { month, ...stats.month(month) },
            allTime: stats.allTime(),
          },
        };
      },
    );

    app.get(
      '/api/stats/daily',
      {
        schema: {
          operationId: 'getDailyStats',
          summary: 'Counts of each of the last days',
          description:
            'One entry per day of the named time zone, oldest first, today last (days without messages have zeros).',
          tags: ['sms'],
          querystring: DailyStatsQuerySchema,
          response: {
            200: json('Counts per day in the named time zone.', DailyStatsResponseSchema, dailyStatsExample),
            ...bearerErrors([400], {
              400: 'invalid_request: days is not a whole number from 1 to 90, or an unknown query parameter.',
            }),
          },
        },
      },
      async (request) => {
        const cal = calendar();
        const dates = daysEnding(cal.dayOf(clock.now()), request.query.days);
        const rows = new Map(stats.days(dates[0]!, dates.at(-1)!).map(({ day, ...counts }) => [day, counts]));
        return {
          success: true as const,
          data: { timeZone: cal.timeZone, days: dates.map((date) => ({ date, ...(rows.get(date) ?? ZERO) })) },
        };
      },
    );
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending, calendar, clock }) => statsRoutes(sending.stats, calendar, clock);
