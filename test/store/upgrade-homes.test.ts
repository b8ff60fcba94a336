// Upgrades from every released version (issue 38): a home written by 0.1.0, 0.2.0, 0.3.0 and 0.4.0's
// own code (test/fixtures/homes/<version>/, made by scripts/make-home-fixtures.mjs; made.json
// lists what each made) is copied and opened by today's code. Every message, queued message,
// inbox entry, webhook target and pending event, the key and the webhook secret are kept; the
// queued messages are handed off once at their sendAt, the sent and failed ones never again,
// not after a restart either; opening twice changes nothing the second time. A pending event
// stored in the old form (its wire body) is posted after the upgrade with exactly those bytes.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createWebhookDelivery } from '../../src/events/delivery.js';
import type { PostResult } from '../../src/events/post-signed.js';
import { createWebhookSecretFile } from '../../src/events/signing.js';
import { openDatabase, schemaVersion } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { API_TARGET, ENV_TARGET, fixtureHome, type Made, openWithToday } from '../helpers/fixture-homes.js';

/**
 * What each version's fixture README lists: counts per status (blocked: queued to a number that
 * opted out later, 0.4.0's only), inbox entries, webhook targets.
 */
const EXPECTED = {
  '0.1.0': { sent: 2, queued: 0, blocked: 0, cancelled: 0, failed: 1, inbox: 0, targets: [ENV_TARGET] },
  '0.2.0': { sent: 2, queued: 2, blocked: 0, cancelled: 1, failed: 1, inbox: 2, targets: [ENV_TARGET, API_TARGET] },
  '0.3.0': { sent: 2, queued: 2, blocked: 0, cancelled: 1, failed: 1, inbox: 2, targets: [ENV_TARGET, API_TARGET] },
  '0.4.0': { sent: 2, queued: 2, blocked: 1, cancelled: 1, failed: 1, inbox: 5, targets: [ENV_TARGET, API_TARGET] },
} as const;
const total = (w: (typeof EXPECTED)[keyof typeof EXPECTED]) => w.sent + w.queued + w.blocked + w.cancelled + w.failed;

/** Every table's rows, in a fixed order: what "changes nothing" compares. */
function dump(path: string): string {
  const db = new Database(path, { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as {
      name: string;
    }[];
    const rows = tables.map(({ name }) => [name, db.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all()]);
    return JSON.stringify({ version: db.pragma('user_version', { simple: true }), rows });
  } finally {
    db.close();
  }
}

function countRows(path: string, table: string): number {
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** The fixture's pending deliveries as its version stored them: event id, target and the wire body. */
function storedBodies(path: string): string[] {
  const db = new Database(path, { readonly: true });
  try {
    const sql = `SELECT d.event_id AS id, d.target, e.body FROM webhook_deliveries d JOIN webhook_events e ON e.id = d.event_id`;
    return (db.prepare(sql).all() as { id: string; target: string; body: string }[])
      .map((r) => `${r.target} ${r.id} ${r.body}`)
      .sort();
  } finally {
    db.close();
  }
}

for (const version of Object.keys(EXPECTED) as (keyof typeof EXPECTED)[]) {
  const want = EXPECTED[version];

  t.test(`${version}: opened twice by today's code, the second open changes nothing`, async (t) => {
    const { home } = fixtureHome(t, version);
    const path = join(home, 'gateway.db');
    const before = new Database(path, { readonly: true });
    t.ok(schemaVersion(before) < MIGRATIONS.length, 'the fixture is an older schema');
    before.close();
    openDatabase(path).close();
    const once = dump(path);
    openDatabase(path).close();
    t.equal(dump(path), once, 'the second open is a no-op');
    t.match(once, `"version":${MIGRATIONS.length}`, 'at the current schema');
  });

  t.test(`${version}: every record, the key and the secret are kept`, async (t) => {
    const { home, made } = fixtureHome(t, version);
    const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
    const secret = readFileSync(join(home, 'webhook-secret'), 'utf8').trim();
    const pendingEvents = countRows(join(home, 'gateway.db'), 'webhook_events');
    const a = await openWithToday(t, home, Date.parse(made.madeAt) + 60_000);
    t.equal(a.key, key, 'the API key is the fixture own');
    t.equal(createWebhookSecretFile(home).current(), secret, 'the webhook secret is the fixture own');
    t.equal(countRows(join(home, 'gateway.db'), 'webhook_events'), pendingEvents, 'pending webhook events kept');

    const all = (await a.get('/api/messages?limit=100')).json();
    t.equal(all.pagination.total, total(want), 'every message');
    const byId = new Map<
      string,
      { to: string; body: string; status: string; reason: string | null; sendAt: string | null; tags: object }
    >(all.data.map((m: { id: string }) => [m.id, m]));
    const expectRecords = (list: Made['sent'], status: string, count: number) => {
      t.equal(list.length, count, `${count} ${status} made`);
      for (const m of list) {
        t.match(byId.get(m.id), { to: m.to, body: m.message, status }, `${m.id} ${status}`);
        t.same(byId.get(m.id)?.tags, m.tags ?? {}, `${m.id}: its tags (0.4 on), {} before`);
      }
    };
    expectRecords(made.sent, 'sent', want.sent);
    expectRecords(made.queued, 'queued', want.queued);
    expectRecords(made.blocked ?? [], 'queued', want.blocked);
    expectRecords(made.cancelled, 'cancelled', want.cancelled);
    expectRecords(made.failed, 'failed', want.failed);
    t.equal(byId.get(made.sent[0]!.id)?.body, `${version} sent 1`);
    for (const m of made.failed) t.equal(byId.get(m.id)?.reason, 'simulated_failure');
    for (const m of made.queued) t.equal(byId.get(m.id)?.sendAt, made.sendAt, 'sendAt kept');

    await a.gateway.inbox.watcher.pollOnce(); // the simulated inbox read again: nothing is new
    const inbox = (await a.get('/api/inbox?limit=100')).json().data as Required<Made['received'][number]>[];
    t.equal(inbox.length, want.inbox, `${want.inbox} inbox entries`);
    t.same(
      inbox.map(({ id, from, body, keyword, inReplyTo }) => ({
        ...{ id, from, body },
        ...(keyword ? { keyword } : {}),
        ...(inReplyTo ? { inReplyTo } : {}),
      })),
      made.received,
      `${want.inbox} inbox entries, none received twice`,
    );
    const targets = (await a.get('/api/webhooks')).json().data as { url: string }[];
    t.same(targets.map((w) => w.url).sort(), [...want.targets].sort(), 'every webhook target');
  });

  t.test(`${version}: queued messages go once at their sendAt; nothing sent is sent again`, async (t) => {
    const { home, made } = fixtureHome(t, version);
    const queuedIds = made.queued.map((m) => m.id).sort();
    const queuedTexts = made.queued.map((m) => `${m.to} ${m.message}`).sort();
    const handedOff = (handoffs: { number: string; text: string }[]) =>
      handoffs.map((h) => `${h.number} ${h.text}`).sort();
    await t.test('first start after the upgrade', async (t) => {
      const a = await openWithToday(t, home, Date.parse(made.madeAt) + 60_000);
      await a.clock.tick(10 * 60_000);
      t.same(a.handoffs, [], 'nothing handed off before any sendAt');
      if (made.sendAt) await a.clock.tick(Date.parse(made.sendAt) - a.clock.now() + 60_000);
      await a.clock.tick(2 * 60 * 60_000);
      t.same(handedOff(a.handoffs), queuedTexts, 'each queued message handed off once, nothing else');
      for (const id of queuedIds) t.equal((await a.get(`/api/messages/${id}`)).json().data.status, 'sent');
    });
    await t.test('a restart later: nothing is handed off again', async (t) => {
      const a = await openWithToday(t, home, Date.parse(made.madeAt) + 4 * 60 * 60_000);
      await a.clock.tick(2 * 60 * 60_000);
      t.same(a.handoffs, [], 'no hand-off');
      const all = (await a.get('/api/messages?limit=100')).json();
      t.equal(all.pagination.total, total(want), 'no message added or lost');
    });
  });

  t.test(`${version}: pending events stored before are posted with the bytes they were stored with`, async (t) => {
    const { home, made } = fixtureHome(t, version);
    const before = storedBodies(join(home, 'gateway.db'));
    t.ok(before.length > 0, 'the fixture has pending deliveries');
    const a = await openWithToday(t, home, Date.parse(made.madeAt) + 60_000);
    await a.gateway.webhooks.delivery.stop(); // nobody listens at the fixture's targets: these posts are recorded
    const posted: string[] = [];
    const delivery = createWebhookDelivery({
      store: a.gateway.webhooks.outbox,
      clock: a.clock,
      secret: () => createWebhookSecretFile(home).current(),
      userAgent: 'sms-gateway/test',
      post: async (url, id, body): Promise<PostResult> => {
        posted.push(`${url} ${id} ${body}`);
        return { ok: true, status: 200, error: null };
      },
    });
    t.teardown(() => delivery.stop());
    await delivery.runDue();
    t.same(posted.sort(), before, 'each pending delivery posted once, its stored body byte for byte');
    t.equal(a.gateway.webhooks.outbox.heads().length, 0, 'none left');
  });
}
