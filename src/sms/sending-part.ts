// The sending part, composed from its own section of the configuration: the message,
// stats and queue stores, pacing, the one hand-off lane, the settler with the send and
// storage health, the synchronous send and queue services, and in real mode the sent-box
// confirmation, the opt-out list and its keywords, the keyword rules, and what a received SMS
// changes (receivedEffects: applied by the inbox in the transaction that stores it), and SMSGate's
// messages and device id (smsgate). It announces `handoff.finished` (the settler),
// `message.queued` (the queue's intake) and `opt-out.changed` (the list); the lane listens to
// `message.queued`, send health to `handoff.finished`.
// Building has no side effects; start() runs the background work, stop() ends it.
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { ClockEvents } from '../core/clock-watch.js';
import type { Config } from '../core/config.js';
import type { Emitter, Subscriber } from '../core/dispatcher.js';
import type { RuntimeInfo } from '../core/runtime.js';
import type { Calendar } from '../core/time-zone.js';
import type { Db } from '../store/database.js';
import { createMessageStore, type MessageRow, type MessageStore, type NewMessage } from '../store/messages.js';
import type { OutboxStore } from '../store/outbox.js';
import { createOptOutStore, type OptOutEvents } from '../store/opt-outs.js';
import { createRuleStore } from '../store/rules.js';
import { createQueueStore, type QueueStore } from '../store/queue.js';
import { createStatsStore } from '../store/stats.js';
import { watchWrites } from '../store/write-watch.js';
import { createConfirmer } from './confirmation.js';
import type { SmsStoreShare } from './sms-store-share.js';
import { createEnqueue, type Enqueue } from './enqueue.js';
import { createLane } from './lane.js';
import { createPacing, type Pacing } from './pacing.js';
import { createSendService } from './send.js';
import type { SendEvents } from './send-events.js';
import { createSendHealth } from './send-health.js';
import type { Sender } from './senders.js';
import { createSettler, type Settler } from './settle.js';
import { createStorageHealth } from './storage-health.js';
import { createMetaStore } from '../store/meta.js';
import { createAutoReplyGuard } from './auto-reply-guard.js';
import { failIfOptedOut } from './opt-out-intake.js';
import { createOptOutList, type OptOutList } from './opt-out-list.js';
import { createOptOutReplies } from './opt-out-replies.js';
import { createRules } from './rules.js';
import { createRuleReplies } from './rule-replies.js';
import type { SimCount } from './validation.js';
import { createReceivedEffects } from './received-effects.js';
import { createNumbering } from './answerable-number.js';
import { createSmsgateMessageStore } from '../store/smsgate-messages.js';
import { createSmsgateMessages } from './smsgate-messages.js';
import { createSmsgateDeviceId } from './smsgate-device-id.js';

/** The configuration's section for sending. */
export type SendingConfig = Pick<Config, 'defaultSim' | 'queueRate' | 'quietHours' | 'optOut'>;

export interface SendingPartDeps {
  db: Db;
  clock: Clock;
  runtime: RuntimeInfo;
  config: SendingConfig;
  events: Emitter<SendEvents & OptOutEvents> & Subscriber<SendEvents & ClockEvents & OptOutEvents>;
  /** Where settled messages' events are stored and announced from. */
  outbox: Pick<OutboxStore, 'record'>;
  sender: Sender;
  calendar: () => Calendar;
  simCount: SimCount;
  /** The SIM's country as the phone last told it (national forms of senders are read in it), or null. */
  simCountry?: (() => string | null) | undefined;
  /**
   * Real mode: the phone's sent box is read to confirm hand-offs (in this environment; `share`: with the inbox's
   * polls).
   */
  sentBox: { env: NodeJS.ProcessEnv; share?: SmsStoreShare } | undefined;
  logger?: Logger | undefined;
}

/** The one hand-off lane, skipping (failed opted_out) a recipient listed since the message was queued. */
function sendingLane(
  deps: SendingPartDeps,
  parts: {
    messages: MessageStore;
    queue: QueueStore;
    pacing: Pacing;
    settler: Settler;
    optOuts: OptOutList;
  },
) {
  const { messages, optOuts } = parts;
  const optedOut = (row: MessageRow, now: number) => failIfOptedOut({ store: messages, optOuts }, row, now);
  const syncOptedOut = (row: NewMessage) => optOuts.blocks(row.sendTo, row.origin ?? 'api');
  return createLane({
    store: messages,
    queue: parts.queue,
    pacing: parts.pacing,
    sender: deps.sender,
    clock: deps.clock,
    timeZone: () => deps.calendar().timeZone,
    quietHours: deps.config.quietHours,
    settler: parts.settler,
    optedOut,
    syncOptedOut,
    logger: deps.logger,
  });
}

/**
 * What answers a received SMS: the limits of automatic answers, the opt-out keywords' replies, the keyword rules
 * and their replies, and receivedEffects, which applies them in the inbox's transaction.
 */
function replyParts(deps: SendingPartDeps, parts: { messages: MessageStore; optOuts: OptOutList; enqueue: Enqueue }) {
  const { db, clock, config, logger } = deps;
  const { messages, optOuts, enqueue } = parts;
  const country = deps.simCountry ?? (() => null);
  const autoReplies = createAutoReplyGuard({ clock, store: messages, numbers: createNumbering(), country, logger });
  const optOutReplies = createOptOutReplies({
    settings: config.optOut,
    list: optOuts,
    guard: autoReplies,
    enqueue,
    logger,
  });
  const rules = createRules({ store: createRuleStore(db), clock, optOut: config.optOut, logger });
  const ruleReplies = createRuleReplies({ rules, optOuts, guard: autoReplies, enqueue, logger });
  const effects = { optOut: optOutReplies, rules: ruleReplies, ruleList: rules, guard: autoReplies };
  const receivedEffects = createReceivedEffects({ ...effects, settings: config.optOut });
  return { autoReplies, rules, ruleReplies, receivedEffects };
}

export function createSendingPart(deps: SendingPartDeps) {
  const { db, clock, runtime, config, events, logger } = deps;
  const stats = createStatsStore(db);
  const messages = createMessageStore(db, stats, { outbox: deps.outbox });
  const queue = createQueueStore(db, messages);
  const pacing = createPacing(clock, config.queueRate);
  const timeZone = () => deps.calendar().timeZone;
  const confirmer = deps.sentBox
    ? createConfirmer({ store: messages, clock, timeZone, env: deps.sentBox.env, logger, share: deps.sentBox.share })
    : undefined;
  const meta = createMetaStore(db);
  // While a write has failed, one small write now and then tells when the disk takes writes again.
  const storage = createStorageHealth(clock, () => meta.set('storage_probe', String(clock.now())));
  watchWrites(db, storage.writes); // every write the store makes, background ones too
  const sendHealth = createSendHealth(storage);
  const settler = createSettler({ store: messages, clock, runtime, events, storage, confirmer, logger });
  const optOuts = createOptOutList({ store: createOptOutStore(db), clock, events, logger });
  const lane = sendingLane(deps, { messages, queue, pacing, settler, optOuts });
  const common = {
    clock,
    runtime,
    calendar: deps.calendar,
    logger,
    defaultSim: config.defaultSim,
    simCount: deps.simCount,
    storage,
    optOuts,
  };
  const sendService = createSendService({ ...common, store: messages, lane, pacing, settler });
  const enqueue = createEnqueue({ ...common, store: messages, queue, events });
  const { autoReplies, rules, ruleReplies, receivedEffects } = replyParts(deps, { messages, optOuts, enqueue });
  const smsgateIds = createSmsgateMessageStore(db);
  const smsgate = {
    /** SMSGate's messages: its ids for our records, sending, reading, cancelling, the list. */
    messages: createSmsgateMessages({ enqueue, ids: smsgateIds, logger }),
    /** The phone's device id in SMSGate's routes and payloads (made once, kept in the meta table). */
    deviceId: createSmsgateDeviceId(meta),
  };

  events.on('handoff.finished', (h) => sendHealth.handoffFinished(h));
  events.on('message.queued', () => lane.notify());
  events.on('clock.jumped', () => lane.clockJumped());

  return {
    stats,
    messages,
    queue,
    pacing,
    lane,
    settler,
    sendHealth,
    sendService,
    enqueue,
    confirmer,
    optOuts,
    autoReplies,
    rules,
    ruleReplies,
    receivedEffects,
    smsgate,
    /** Background work: queued messages waiting from before, pending confirmations. */
    start() {
      lane.notify();
      confirmer?.start();
      storage.start();
    },
    /** Stops the lane (a hand-off in flight gets `graceMs`) and the confirmation. */
    async stop(graceMs?: number) {
      await Promise.all([lane.stop(graceMs), confirmer?.stop()]);
      settler.flush(); // a last try for outcomes the disk refused
      settler.stop();
      storage.stop();
    },
  };
}

export type SendingPart = ReturnType<typeof createSendingPart>;
