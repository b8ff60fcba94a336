// The received-messages part of the composition (used only by server/compose.ts): the
// stored inbox, the webhook targets registered over the API and their test event, and the
// inbox watcher, which reads the phone's inbox only while someone listens (a webhook
// target, SMS_GATEWAY_INBOX, MQTT: deps.inboxWanted) and starts or stops when that changes.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Db } from '../store/database.js';
import { createInboxStore } from '../store/inbox.js';
import { createMetaStore } from '../store/meta.js';
import type { OutboxStore } from '../store/outbox.js';
import type { WebhookTargetsTable } from '../store/webhook-targets.js';
import { createInboxWatcher, type InboxWatcherOptions } from '../events/inbox-watcher.js';
import { createTargetStore } from '../events/targets.js';
import { createWebhookTester } from '../events/ping-targets.js';

export interface InboxPartDeps {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  outbox: OutboxStore;
  webhookTargets: WebhookTargetsTable;
  timeZone: () => string;
  webhookSecret?: (() => string) | undefined;
  /** The User-Agent of every webhook request (the same as delivery's). */
  userAgent: string;
  webhookTimeoutMs?: number | undefined;
  deviceEnv?: NodeJS.ProcessEnv | undefined;
  inboxPollMs?: number | undefined;
  inboxWanted?: ((registeredTargets: number) => boolean) | undefined;
  inboxList?: InboxWatcherOptions['list'] | undefined;
  logger?: Logger | undefined;
}

export function composeInbox(deps: InboxPartDeps) {
  const { db, clock, outbox, logger } = deps;
  const inboxStore = createInboxStore(db);
  const targets = createTargetStore(deps.webhookTargets, outbox);
  const tester = createWebhookTester({
    targets,
    outbox,
    clock,
    secret: deps.webhookSecret ?? (() => ''),
    userAgent: deps.userAgent,
    version: deps.runtime.version,
    logger,
    ...(deps.webhookTimeoutMs ? { timeoutMs: deps.webhookTimeoutMs } : {}),
  });
  const inbox = createInboxWatcher({
    clock,
    meta: createMetaStore(db),
    outbox,
    inbox: inboxStore,
    pollMs: deps.inboxPollMs ?? 15_000,
    timeZone: deps.timeZone,
    env: deps.deviceEnv,
    logger,
    ...(deps.inboxList ? { list: deps.inboxList } : {}),
  });
  const inboxEnabled = () => (deps.inboxWanted ?? (() => false))(targets.registeredCount());
  let background = false;
  return {
    inbox,
    inboxStore,
    inboxEnabled,
    targets,
    tester,
    /** Starts or stops the watcher to match inboxEnabled(); one that was off starts afresh (forget). */
    async switchInbox() {
      if (!inboxEnabled()) {
        await inbox.stop();
        // A target registered while the poll in flight finished: it runs again, keep its place.
        if (!inboxEnabled() && !inbox.running()) inbox.forget();
      } else if (background) inbox.start();
    },
    /** Step 4 for the watcher: it runs from now on whenever inboxEnabled(). */
    startInbox() {
      background = true;
      if (inboxEnabled()) inbox.start();
    },
    async stopInbox() {
      background = false;
      await inbox.stop();
    },
  };
}
