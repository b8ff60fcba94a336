// The gateway's working parts, wired once: store, roll-ups, send budget, dispatcher and
// send service. At creation it settles messages a crash interrupted (failed/interrupted,
// never resent) and rebuilds the send budget from the history, so a restart resets nothing.
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { RuntimeInfo } from './runtime.js';
import type { Calendar } from './time-zone.js';
import type { Db } from './store/database.js';
import { createMessageStore } from './store/messages.js';
import { createStatsStore } from './store/stats.js';
import { BUDGET_WINDOW_MS, createSendBudget } from './sms/send-budget.js';
import { createDispatcher } from './sms/dispatcher.js';
import { createSendService } from './sms/send.js';
import type { Sender } from './sms/senders.js';

export interface ServicesOptions {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  sender: Sender;
  calendar: () => Calendar;
  defaultSim: number;
  simCount: () => number;
  logger?: Logger | undefined;
}

export function createServices(opts: ServicesOptions) {
  const stats = createStatsStore(opts.db);
  const messages = createMessageStore(opts.db, stats);
  const interrupted = messages.recoverInterrupted(opts.clock.now());
  if (interrupted.length > 0) {
    opts.logger?.warn(
      { ids: interrupted.map((r) => r.id) },
      'messages interrupted by a stop during hand-off are marked failed (never resent)',
    );
  }
  const budget = createSendBudget(opts.clock);
  const now = opts.clock.now();
  budget.seed(messages.acceptedSince(now - BUDGET_WINDOW_MS).map((m) => ({ ageMs: now - m.createdAt, segments: m.segments })));
  const dispatcher = createDispatcher(opts.sender);
  const sendService = createSendService({
    store: messages,
    budget,
    dispatcher,
    clock: opts.clock,
    runtime: opts.runtime,
    calendar: opts.calendar,
    defaultSim: opts.defaultSim,
    simCount: opts.simCount,
    logger: opts.logger,
  });
  return { stats, messages, budget, dispatcher, sendService, calendar: opts.calendar };
}

export type Services = ReturnType<typeof createServices>;
