// Two outbox rules (src/events/outbox.ts): the listener (MQTT) hears of an event only once
// the transaction that made it committed, never of one rolled back; and a URL registered
// over the API that was also listed in SMS_GATEWAY_WEBHOOK_URLS stays registered when it
// leaves the environment.
import t from 'tap';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { openDatabase } from '../../src/store/database.js';
import { createOutboxStore } from '../../src/events/outbox.js';
import { createTargetStore } from '../../src/events/targets.js';
import { makeEvent, type WebhookEvent } from '../../src/events/events.js';
import { tempDir } from '../helper.js';

t.test('the listener hears of committed events only', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const heard: string[] = [];
  const outbox = createOutboxStore(db, { onEvent: (e: WebhookEvent) => heard.push(e.id) });
  const kept = makeEvent('sms.sent', { n: 1 }, 1000);
  const lost = makeEvent('sms.sent', { n: 2 }, 2000);
  db.transaction(() => outbox.enqueue(kept, 1000))();
  t.throws(() =>
    db.transaction(() => {
      outbox.enqueue(lost, 2000);
      throw new Error('a later write failed');
    })(),
  );
  const alone = makeEvent('gateway.test', {}, 3000);
  outbox.enqueue(alone, 3000); // outside any transaction: committed at once
  await tick();
  await tick();
  t.same(heard, [kept.id, alone.id], 'the rolled-back event is never announced');
  t.equal((db.prepare('SELECT COUNT(*) AS n FROM event_announcements').get() as { n: number }).n, 0, 'nothing left behind');
});

t.test('an API registration outlives the URL leaving the environment', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const outbox = createOutboxStore(db);
  const targets = createTargetStore(db, outbox);
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
  t.ok(targets.list().some((x) => x.url === envOnly && x.source === 'api'), 'registered while in the environment: kept too');
  const plainEnv = 'http://192.168.1.12:9000/hook';
  outbox.syncTargets([plainEnv], 6000);
  outbox.syncTargets([], 7000);
  t.notOk(targets.list().some((x) => x.url === plainEnv), 'an env-only target goes with the environment');
});
