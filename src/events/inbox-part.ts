// The inbox part: the stored received SMS and the inbox watcher, which reads the phone's
// inbox only while someone listens (a webhook target, SMS_GATEWAY_INBOX, MQTT: core/config.ts
// inboxWatcherEnabled) and starts or stops when that changes (a target registered or removed
// over the API). Each new SMS is stored with its event and what it changes (its effects) and
// announced as `sms.received`, with what it replies to (reply-window.ts) and the keyword rule
// it triggers; after each hand-off that reached the phone the
// watcher reads more often for a while (inbox-watcher.ts afterHandoff).
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Subscriber } from '../core/dispatcher.js';
import { inboxWatcherEnabled, type Config } from '../core/config.js';
import type { Db } from '../store/database.js';
import { createInboxStore } from '../store/inbox.js';
import { createMetaStore } from '../store/meta.js';
import type { OutboxStore } from '../store/outbox.js';
import { createReplyLookup } from '../store/message-reads.js';
import type { SendEvents } from '../sms/send-events.js';
import { createInboxWatcher, type InboxWatcherOptions } from './inbox-watcher.js';
import { replyWindow } from './reply-window.js';

/** The configuration's section for received SMS. */
export type InboxConfig = Pick<
  Config,
  'inbox' | 'inboxPollMs' | 'webhookUrls' | 'mqtt' | 'replyWindowHours' | 'optOut'
>;

export interface InboxPartDeps {
  db: Db;
  clock: Clock;
  config: InboxConfig;
  outbox: Pick<OutboxStore, 'record'>;
  /** The event path: each `handoff.finished` makes the watcher read more often for a while. */
  events?: Subscriber<Pick<SendEvents, 'handoff.finished'>>;
  /** How many webhook targets were registered over the API (they listen too). */
  registeredTargets: () => number;
  timeZone: () => string;
  /** Settles once timeZone() tells the phone's zone: the watcher's first poll waits for it. */
  timeZoneKnown?: () => Promise<unknown>;
  /** The inbox to read: termux-sms-list in this environment, or a list of its own (simulated mode). */
  source: { env: NodeJS.ProcessEnv } | { list: NonNullable<InboxWatcherOptions['list']> };
  /** What a received SMS changes (the opt-out list, answers, rules), in the transaction that stores it. */
  effects?: InboxWatcherOptions['effects'];
  /** The sent-box confirmation's share of the polls (sms/sms-store-share.ts), in real mode. */
  share?: InboxWatcherOptions['share'];
  logger?: Logger | undefined;
}

export function createInboxPart(deps: InboxPartDeps) {
  const { db, clock, config } = deps;
  const store = createInboxStore(db);
  const watcher = createInboxWatcher({
    clock,
    meta: createMetaStore(db),
    outbox: deps.outbox,
    inbox: store,
    pollMs: config.inboxPollMs,
    timeZone: deps.timeZone,
    ...(deps.timeZoneKnown ? { timeZoneKnown: deps.timeZoneKnown } : {}),
    logger: deps.logger,
    replyTo: replyWindow(createReplyLookup(db), config.replyWindowHours),
    effects: deps.effects,
    share: deps.share,
    ...deps.source,
  });
  // A hand-off that reached the phone (not one it refused): its reply may come soon.
  deps.events?.on('handoff.finished', (h) => {
    if (h.result.ok) watcher.afterHandoff();
  });
  const enabled = () => inboxWatcherEnabled(config, deps.registeredTargets());
  let background = false;
  return {
    watcher,
    store,
    enabled,
    /** Start step 1: a watcher that is off forgets where it was, so it starts afresh when switched on. */
    restore() {
      if (!enabled()) watcher.forget();
    },
    /** Starts or stops the watcher to match enabled(); one that was off starts afresh (forget). */
    async switchOver() {
      if (!enabled()) {
        await watcher.stop();
        // A target registered while the poll in flight finished: it runs again, keep its place.
        if (!enabled() && !watcher.running()) watcher.forget();
      } else if (background) watcher.start();
    },
    /** Background work: the watcher runs from now on whenever enabled(). */
    start() {
      background = true;
      if (enabled()) watcher.start();
    },
    async stop() {
      background = false;
      await watcher.stop();
    },
  };
}

export type InboxPart = ReturnType<typeof createInboxPart>;
