// Two outbox rules (src/store/outbox.ts): an event is announced on the event path (its
// listeners: webhook delivery, MQTT, metrics) exactly once, only after the transaction that
// made it committed, never one rolled back (a settled message's event included), under the
// name its cause gave it, with delivery.due first when a target is to get it; and a URL registered over the API that
// was also listed in SMS_GATEWAY_WEBHOOK_URLS stays registered when it leaves the environment.
import t from 'tap';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { openDatabase } from '../../src/store/database.js';
import { createOutboxStore } from '../../src/store/outbox.js';
import { createWebhookTargetsTable } from '../../src/store/webhook-targets.js';
import { createMessageStore } from '../../src/store/messages.js';
import { createStatsStore } from '../../src/store/stats.js';
import { transaction } from '../../src/store/transaction.js';
import { createTargetStore } from '../../src/events/targets.js';
import { makeEvent, type ReceivedSmsData, type WebhookEvent } from '../../src/store/event-record.js';
import { createDispatcher } from '../../src/core/dispatcher.js';
import type { GatewayEvents } from '../../src/events/domain-events.js';
import { newMessageId } from '../../src/core/ids.js';
import { tempDir } from '../helpers/paths.js';

/** An event path that notes what it heard, by name. */
function eventPath() {
  const events = createDispatcher<GatewayEvents>({
    onListenerError: (err) => {
      throw err;
    },
  });
  const heard: string[] = [];
  const note = (name: 'message.settled' | 'sms.received' | 'delivery.due') => (e: WebhookEvent) =>
    heard.push(`${name} ${e.id}`);
  for (const name of ['message.settled', 'sms.received', 'delivery.due'] as const) events.on(name, note(name));
  return { events, heard };
}

t.test('committed events only are announced, once, after the commit, under the name their cause gave', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const { events, heard } = eventPath();
  const outbox = createOutboxStore(db, createWebhookTargetsTable(db), events);
  // Only their ids matter here: the data are stand-ins.
  const kept = makeEvent<'sms.sent'>('sms.sent', { n: 1 } as never, 1000);
  const lost = makeEvent<'sms.sent'>('sms.sent', { n: 2 } as never, 2000);
  transaction(db, () => {
    outbox.record('message.settled', kept, 1000);
    t.same(heard, [], 'not inside the transaction');
  })();
  t.throws(() =>
    transaction(db, () => {
      outbox.record('message.settled', lost, 2000);
      throw new Error('a later write failed');
    })(),
  );
  const alone = makeEvent('sms.received', {} as ReceivedSmsData, 3000);
  outbox.record('sms.received', alone, 3000); // outside any transaction: committed at once
  await tick();
  await tick();
  t.same(
    heard,
    [`message.settled ${kept.id}`, `sms.received ${alone.id}`],
    'the rolled-back event is never announced, the others once each; no target, no delivery.due',
  );
  t.notOk(
    db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'event_announcements'`).get(),
    'nothing kept for the announcement (migration 8 dropped the table)',
  );
});

t.test('a settled message announces its event after the commit; a rolled-back settlement does not', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const heard: { name: string; type: string; id: unknown }[] = [];
  const events = createDispatcher<GatewayEvents>({
    onListenerError: (err) => {
      throw err;
    },
  });
  for (const name of ['message.settled', 'delivery.due'] as const)
    events.on(name, (e) => heard.push({ name, type: e.type, id: (e.data as { id?: string }).id }));
  const table = createWebhookTargetsTable(db);
  const outbox = createOutboxStore(db, table, events);
  outbox.syncTargets(['http://192.168.1.10:9000/hook'], 500);
  const messages = createMessageStore(db, createStatsStore(db), { outbox });
  const queued = (at: number) => {
    const id = newMessageId(at);
    messages.insertQueued({
      id,
      to: '+15551234567',
      sendTo: '+15551234567',
      body: 'hi',
      segments: 1,
      encoding: 'gsm7',
      simSlot: 1,
      sourceIp: '127.0.0.1',
      createdAt: at,
      statsDay: '2026-11-21',
      idempotencyKey: null,
      requestHash: null,
    });
    return id;
  };
  const sent = queued(1000);
  const undone = queued(1001);
  t.ok(messages.settle(sent, { status: 'sent', reason: null, billedSegments: 1, at: 2000, handedOff: true }));
  t.same(
    heard,
    [
      { name: 'delivery.due', type: 'sms.sent', id: sent },
      { name: 'message.settled', type: 'sms.sent', id: sent },
    ],
    'heard as soon as settle returned: delivery has work, and the message settled',
  );
  t.throws(() =>
    transaction(db, () => {
      messages.settle(undone, { status: 'failed', reason: 'timeout', billedSegments: 0, at: 2001, handedOff: false });
      throw new Error('the caller failed after settling');
    })(),
  );
  t.equal(messages.get(undone)?.status, 'queued', 'rolled back');
  t.equal(outbox.heads().length, 1, 'only the committed event waits for delivery');
  t.equal(messages.settleInterrupted([undone], 3000).length, 1);
  t.same(
    heard.slice(2),
    [
      { name: 'delivery.due', type: 'sms.failed', id: undone },
      { name: 'message.settled', type: 'sms.failed', id: undone },
    ],
    'interrupted: sms.failed, once',
  );
});

t.test('an API registration outlives the URL leaving the environment', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const table = createWebhookTargetsTable(db);
  const outbox = createOutboxStore(db, table);
  const targets = createTargetStore(table, outbox);
  const url = 'http://192.168.1.10:8123/api/webhook/x';
  const { target } = targets.add(url, 1000);
  outbox.syncTargets([url], 2000); // later also in SMS_GATEWAY_WEBHOOK_URLS
  t.match(targets.list(), [{ id: target.id, source: 'env' }]);
  outbox.syncTargets([], 3000); // and removed from it again
  t.match(targets.list(), [{ id: target.id, url, source: 'api' }], 'still registered, as an API target');
  const envOnly = 'http://192.168.1.11:9000/hook';
  outbox.syncTargets([envOnly], 4000);
  t.equal(targets.add(envOnly, 4500).created, false, 'registering an env URL: the same target');
  outbox.syncTargets([], 5000);
  t.ok(
    targets.list().some((x) => x.url === envOnly && x.source === 'api'),
    'registered while in the environment: kept too',
  );
  const plainEnv = 'http://192.168.1.12:9000/hook';
  outbox.syncTargets([plainEnv], 6000);
  outbox.syncTargets([], 7000);
  t.notOk(
    targets.list().some((x) => x.url === plainEnv),
    'an env-only target goes with the environment',
  );
});
