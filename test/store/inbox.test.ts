// The stored inbox (newest 1000, the from key) and migration 6 on a home with webhook
// targets from before (they get ids at the next start's sync and count as env targets).
import t from 'tap';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { openDatabase } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { createInboxStore, fromKey, INBOX_KEPT } from '../../src/store/inbox.js';
import { createOutboxStore } from '../../src/store/outbox.js';
import { createWebhookTargetsTable } from '../../src/store/webhook-targets.js';
import { createTargetStore } from '../../src/events/targets.js';
import { tempDir } from '../helpers/paths.js';

const msg = (n: number) => ({
  smsId: n,
  from: '+15551230001',
  contact: null,
  body: `m${n}`,
  receivedAt: 1_700_000_000_000 + n,
  simSlot: null,
});

t.test('the newest 1000 are kept, newest first', async (t) => {
  const db = openDatabase(join(tempDir(t), 'gateway.db'));
  t.teardown(() => db.close());
  const store = createInboxStore(db);
  const tx = db.transaction(() => {
    for (let n = 1; n <= INBOX_KEPT + 5; n++) store.add(msg(n), 1_800_000_000_000);
  });
  tx();
  const { rows, total } = store.list({ limit: 2, offset: 0 });
  t.equal(total, 1000);
  t.same(
    rows.map((r) => r.body),
    ['m1005', 'm1004'],
  );
  t.same(
    store.list({ limit: 1, offset: 999 }).rows.map((r) => r.body),
    ['m6'],
    'the five oldest went',
  );
  t.equal(store.list({ limit: 1, offset: 0 }).rows[0]!.receivedAt, new Date(1_700_000_000_000 + 1005).toISOString());
});

t.test('fromKey: spaces, dashes, dots, parentheses and a leading + do not count; letters in any case', async (t) => {
  t.equal(fromKey('+49 (151) 123-45.67'), '491511234567');
  t.equal(fromKey(' 4915112345 67'), '491511234567');
  t.equal(fromKey('DHL Express'), 'dhlexpress');
  t.not(fromKey('015112345678'), fromKey('+4915112345678'));
  t.equal(fromKey('++1'), '+1', 'only one leading +');
});

t.test('migration 6 keeps the webhook targets of an older home; the sync gives them ids', async (t) => {
  const path = join(tempDir(t), 'gateway.db');
  const old = new Database(path);
  for (let v = 0; v < 4; v++) old.exec(MIGRATIONS[v]!);
  old.pragma('user_version = 4');
  old
    .prepare(`INSERT INTO webhook_targets (url) VALUES ('http://192.168.1.10/kept'), ('http://192.168.1.10/dropped')`)
    .run();
  old.close();

  const db = openDatabase(path);
  t.teardown(() => db.close());
  t.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
  const table = createWebhookTargetsTable(db);
  const outbox = createOutboxStore(db, table);
  outbox.syncTargets(['http://192.168.1.10/kept'], 1_800_000_000_000);
  const targets = createTargetStore(table, outbox).list();
  t.match(targets, [
    {
      id: /^wh_[0-9a-z]{26}$/,
      url: 'http://192.168.1.10/kept',
      source: 'env',
      disabled: false,
      createdAt: '2027-01-15T08:00:00.000Z',
    },
  ]);
  t.equal(targets.length, 1, 'a target no longer configured went, as before');
  outbox.syncTargets(['http://192.168.1.10/kept'], 1_900_000_000_000);
  t.equal(createTargetStore(table, outbox).list()[0]!.id, targets[0]!.id, 'the id stays across starts');
});
