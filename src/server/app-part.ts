// The HTTP part: the Fastify app (server/app.ts) given the narrow views of the parts its
// routes serve. Registering or removing a webhook target over the API re-decides whether
// the inbox watcher runs.
import type { EventsPart } from '../events/events-part.js';
import type { InboxPart } from '../events/inbox-part.js';
import type { SendingPart } from '../sms/sending-part.js';
import type { StatusPart } from '../status/status-part.js';
import { createAlertIntake } from '../sms/alert-intake.js';
import { buildApp } from './app.js';
import type { GatewayDeps, Ports } from './gateway-deps.js';

export interface AppPartDeps {
  deps: GatewayDeps;
  ports: Pick<Ports, 'calendar'>;
  sending: Pick<SendingPart, 'sendService' | 'enqueue' | 'messages' | 'stats' | 'optOuts' | 'rules'>;
  webhooks: Pick<EventsPart, 'targets' | 'tester'>;
  inbox: Pick<InboxPart, 'store' | 'enabled' | 'switchOver'>;
  status: Pick<StatusPart, 'hostInfo' | 'diagnostics' | 'metrics'>;
}

export function buildGatewayApp({ deps, ports, sending, webhooks, inbox, status }: AppPartDeps) {
  const { clock, logger } = deps;
  return buildApp({
    clock,
    runtime: deps.runtime,
    apiKey: () => deps.apiKey.current(),
    rotateKey: () => deps.apiKey.rotate(),
    sendService: sending.sendService,
    enqueue: sending.enqueue,
    messages: sending.messages,
    stats: sending.stats,
    calendar: ports.calendar,
    status: { hostInfo: status.hostInfo, diagnostics: status.diagnostics },
    inbox: { store: inbox.store, enabled: inbox.enabled },
    optOuts: { list: sending.optOuts, logger },
    rules: { rules: sending.rules, logger },
    webhooks: { targets: webhooks.targets, tester: webhooks.tester, clock, logger, changed: () => inbox.switchOver() },
    receivers: createAlertIntake({ enqueue: sending.enqueue, store: sending.messages, clock, contacts: () => deps.config.contacts, logger }),
    scrapeMetrics: status.metrics.scrape,
    slowReaderClosed: (reason) => status.metrics.onSlowReaderClosed(reason),
    logger,
  });
}
