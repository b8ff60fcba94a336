// GET /api/stats: today, this month and all time, from the daily roll-ups, in the
// phone's time zone (named in the answer).
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Clock } from '../../core/clock.js';
import type { StatsStore } from '../../store/stats.js';
import type { Calendar } from '../../core/time-zone.js';
import { StatsResponseSchema } from '../schemas.js';
import { bearerErrors, json } from '../route-docs.js';
import { statsExample } from '../examples.js';

export function statsRoutes(stats: StatsStore, calendar: () => Calendar, clock: Clock): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/stats',
      {
        schema: {
          operationId: 'getStats',
          summary: 'Today, month and all-time counts',
          tags: ['sms'],
          response: { 200: json('Counts in the named time zone.', StatsResponseSchema, statsExample), ...bearerErrors([]) },
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
  };
}
