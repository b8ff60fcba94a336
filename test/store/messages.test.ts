// Tests the SQLite store: opening (WAL, migrations, a newer schema refused), the message
// history (queued -> sent | failed, pruning to the newest 1000, listing, crash recovery,
// idempotency data) and the daily roll-ups, which pruning never changes
// (docs/design.md, "At most once", "Statistics").
import t, { type Test } from 'tap';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { SchemaError, isStorageUnavailable, migrate, openDatabase, schemaVersion } from '../../src/store/database.js';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { CLAIMED_AMONG_SQL, createMessageStore, type NewMessage } from '../../src/store/messages.js';
import { createStatsStore } from '../../src/store/stats.js';
import { MESSAGE_ID_PATTERN, newMessageId } from '../../src/core/ids.js';
import { tempDir } from '../helpers/paths.js';

const BASE = Date.UTC(2026, 10, 21, 12, 0, 0);
const DAY = '2026-11-21';

function open(t: Test) {
  const dir = tempDir(t);
  const path = join(dir, 'gateway.db');
  const db = openDatabase(path);
  t.teardown(() => {
    if (db.open) db.close();
  });
  const stats = createStatsStore(db);
  const messages = createMessageStore(db, stats);
  return { dir, path, db, stats, messages };
}

function newMsg(over: Partial<NewMessage> = {}): NewMessage {
  const createdAt = over.createdAt ?? BASE;
  return {
    id: newMessageId(createdAt),
    to: '+1 (555) 123-4567',
    sendTo: '+15551234567',
    body: 'hello',
    segments: 1,
    encoding: 'gsm7',
    simSlot: 1,
    sourceIp: '192.168.1.20',
    createdAt,
    statsDay: DAY,
    idempotencyKey: null,
    requestHash: null,
    ...over,
  };
}

const ZERO = { accepted: 0, sent: 0, failed: 0, cancelled: 0, queued: 0, segments: 0, billedSegments: 0 };

t.test('opening: WAL, full sync, schema at the latest migration; reopening keeps data', async (t) => {
  const { db, path, messages } = open(t);
  t.equal(db.pragma('journal_mode', { simple: true }), 'wal');
  t.equal(db.pragma('synchronous', { simple: true }), 2, 'synchronous = FULL');
  t.ok(MIGRATIONS.length >= 1);
  t.equal(schemaVersion(db), MIGRATIONS.length);
  t.equal(db.pragma('user_version', { simple: true }), MIGRATIONS.length);
  const m = newMsg();
  messages.insertQueued(m);
  migrate(db);
  t.equal(schemaVersion(db), MIGRATIONS.length, 'migrate on a current schema changes nothing');
  db.close();
  const again = openDatabase(path);
  t.teardown(() => again.close());
  t.equal(schemaVersion(again), MIGRATIONS.length);
  t.equal(createMessageStore(again, createStatsStore(again)).get(m.id)?.status, 'queued', 'the row survived');
});

t.test('pending migrations run in one transaction: all of them, or none when one fails', async (t) => {
  const db = new Database(':memory:');
  t.teardown(() => db.close());
  const tables = () =>
    (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
      (r) => r.name,
    );
  t.throws(
    () => migrate(db, ['CREATE TABLE a (x)', 'CREATE TABLE b (x)', 'CREATE TABLE broken (']),
    /incomplete input|syntax error/,
  );
  t.equal(schemaVersion(db), 0, 'the version is unchanged');
  t.same(tables(), [], 'and so is the schema: the first two were not kept');
  migrate(db, ['CREATE TABLE a (x)']);
  t.equal(schemaVersion(db), 1);
  migrate(db, ['CREATE TABLE a (x)', 'CREATE TABLE b (x)', 'CREATE TABLE c (x)']);
  t.equal(schemaVersion(db), 3, 'from version 1, only the pending two ran');
  t.same(tables(), ['a', 'b', 'c']);
});

t.test('a schema newer than this code knows is refused with SchemaError', async (t) => {
  const { db, path } = open(t);
  db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
  db.close();
  t.throws(() => openDatabase(path), SchemaError);
  let caught: unknown;
  try {
    openDatabase(path);
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof SchemaError, 'a SchemaError');
  t.match((caught as Error).message, /newer/);
  t.match((caught as Error).message, String(MIGRATIONS.length + 1));
  const raw = new Database(path, { readonly: true });
  t.teardown(() => raw.close());
  t.equal(raw.pragma('user_version', { simple: true }), MIGRATIONS.length + 1, 'the newer schema was not touched');
});

t.test('insertQueued then get; settle to sent; settle refuses unknown and settled ids', async (t) => {
  const { messages, stats } = open(t);
  const m = newMsg({ segments: 3, body: 'x'.repeat(400), encoding: 'gsm7', simSlot: 2 });
  t.match(m.id, MESSAGE_ID_PATTERN);
  messages.insertQueued(m);
  const row = messages.get(m.id);
  t.same(row, {
    ...m,
    via: 'sync',
    origin: 'api',
    sendAt: null,
    expiresAt: null,
    dueAt: m.createdAt,
    billedSegments: 0,
    status: 'queued',
    reason: null,
    updatedAt: m.createdAt,
    handoffStartedAt: null,
    handedOffAt: null,
    responseStatus: null,
    responseBody: null,
    smsStoreId: null,
    tags: null,
    priority: 0,
  });
  t.same(stats.day(DAY), { ...ZERO, accepted: 1, queued: 1, segments: 3 });

  messages.markHandoffStarted(m.id, BASE + 10);
  t.equal(messages.get(m.id)?.handoffStartedAt, BASE + 10);

  t.equal(
    messages.settle(m.id, { status: 'sent', reason: null, billedSegments: 3, at: BASE + 50, handedOff: true }),
    true,
  );
  t.match(messages.get(m.id), {
    status: 'sent',
    reason: null,
    billedSegments: 3,
    updatedAt: BASE + 50,
    handoffStartedAt: BASE + 10,
    handedOffAt: BASE + 50,
  });
  const afterSent = { ...ZERO, accepted: 1, sent: 1, segments: 3, billedSegments: 3 };
  t.same(stats.day(DAY), afterSent);

  t.equal(
    messages.settle(m.id, { status: 'failed', reason: 'timeout', billedSegments: 0, at: BASE + 99, handedOff: false }),
    false,
    'an already-settled message cannot be settled again',
  );
  t.match(messages.get(m.id), { status: 'sent', reason: null, billedSegments: 3, updatedAt: BASE + 50 });
  t.equal(
    messages.settle(m.id, { status: 'sent', reason: null, billedSegments: 3, at: BASE + 99, handedOff: true }),
    false,
    'not even to the same status',
  );
  t.same(stats.day(DAY), afterSent, 'no double count');

  const unknown = newMessageId(BASE);
  t.equal(
    messages.settle(unknown, { status: 'sent', reason: null, billedSegments: 1, at: BASE, handedOff: true }),
    false,
  );
  t.equal(messages.get(unknown), undefined);
  t.same(stats.allTime(), afterSent, 'an unknown id counts nothing');

  messages.markHandoffStarted(m.id, BASE + 500);
  t.equal(messages.get(m.id)?.handoffStartedAt, BASE + 10, 'hand-off start only marks queued messages');
});

t.test('settle to failed keeps handedOffAt null and counts failed', async (t) => {
  const { messages, stats } = open(t);
  const m = newMsg({ segments: 2 });
  messages.insertQueued(m);
  t.equal(
    messages.settle(m.id, {
      status: 'failed',
      reason: 'permission_denied',
      billedSegments: 0,
      at: BASE + 5,
      handedOff: false,
    }),
    true,
  );
  t.match(messages.get(m.id), { status: 'failed', reason: 'permission_denied', billedSegments: 0, handedOffAt: null });
  t.same(stats.day(DAY), { ...ZERO, accepted: 1, failed: 1, segments: 2 });
});

t.test('pruning keeps the newest 1000 messages and never changes the statistics', async (t) => {
  const { db, messages, stats } = open(t);
  const ids: string[] = [];
  const expected = { ...ZERO };
  const insertAndSettle = (i: number) => {
    const segments = 1 + (i % 3);
    const m = newMsg({ createdAt: BASE + i * 1000, segments });
    messages.insertQueued(m);
    ids.push(m.id);
    const sent = i % 2 === 0;
    const ok = messages.settle(m.id, {
      status: sent ? 'sent' : 'failed',
      reason: sent ? null : 'termux_api_error',
      billedSegments: sent ? segments : 0,
      at: m.createdAt + 1,
      handedOff: sent,
    });
    if (!ok) t.fail(`settle ${i}`);
    expected.accepted++;
    expected.segments += segments;
    if (sent) {
      expected.sent++;
      expected.billedSegments += segments;
    } else {
      expected.failed++;
    }
  };

  db.transaction(() => {
    for (let i = 0; i < 1000; i++) insertAndSettle(i);
  })();
  t.equal(messages.count(), 1000);
  t.equal(messages.get(ids[0]!)?.id, ids[0], 'at 1000 nothing is pruned yet');
  const before = stats.allTime();
  t.same(before, {
    accepted: 1000,
    sent: 500,
    failed: 500,
    cancelled: 0,
    queued: 0,
    segments: 1999,
    billedSegments: 1000,
  });
  t.same(stats.day(DAY), before, 'all on one day');

  // The last 5 wait (queued): a waiting message is never pruned, and nothing is pruned for it.
  const late: NewMessage[] = [];
  for (let i = 1000; i < 1005; i++) {
    const m = newMsg({ createdAt: BASE + i * 1000, segments: 1 + (i % 3) });
    messages.insertQueued(m);
    ids.push(m.id);
    late.push(m);
  }
  t.equal(messages.count(), 1005, '1000 settled + 5 waiting: retention counts settled messages only');
  t.equal(messages.get(ids[0]!)?.id, ids[0], 'the oldest settled one is still there');
  const lateSegments = late.reduce((s, m) => s + m.segments, 0);
  t.same(
    stats.allTime(),
    { ...before, accepted: before.accepted + 5, queued: 5, segments: before.segments + lateSegments },
    'pruning 5 settled messages subtracted nothing: sent, failed and billed are unchanged',
  );

  // Settle the late ones the same way as the rest: each settlement prunes the oldest settled one.
  for (let i = 1000; i < 1005; i++) {
    const m = late[i - 1000]!;
    const sent = i % 2 === 0;
    t.equal(
      messages.settle(m.id, {
        status: sent ? 'sent' : 'failed',
        reason: sent ? null : 'termux_api_error',
        billedSegments: sent ? m.segments : 0,
        at: m.createdAt + 1,
        handedOff: sent,
      }),
      true,
    );
    expected.accepted++;
    expected.segments += m.segments;
    if (sent) {
      expected.sent++;
      expected.billedSegments += m.segments;
    } else {
      expected.failed++;
    }
  }

  for (let i = 0; i < 5; i++) t.equal(messages.get(ids[i]!), undefined, `oldest #${i} pruned`);
  t.equal(messages.get(ids[5]!)?.id, ids[5], 'the sixth oldest is kept');
  t.equal(messages.get(ids[1004]!)?.id, ids[1004], 'the newest is kept');
  t.equal(
    messages.settle(ids[0]!, { status: 'sent', reason: null, billedSegments: 1, at: BASE, handedOff: true }),
    false,
    'a pruned message cannot be settled',
  );

  t.same(expected, {
    accepted: 1005,
    sent: 503,
    failed: 502,
    cancelled: 0,
    queued: 0,
    segments: 2010,
    billedSegments: 1006,
  });
  t.same(stats.allTime(), expected, 'stats count all 1005');
  t.same(stats.day(DAY), expected);
  t.same(stats.month('2026-11'), expected);
  const listed = messages.list({ limit: 1, offset: 0 });
  t.equal(listed.total, 1000);
  t.equal(listed.rows[0]?.id, ids[1004], 'newest first');
  const oldest = messages.list({ limit: 1, offset: 999 });
  t.equal(oldest.rows[0]?.id, ids[5], 'the oldest kept is the sixth inserted');
});

t.test('list: newest first by createdAt, ties by id descending; filter, limit, offset, total', async (t) => {
  const { messages } = open(t);
  const m1 = newMsg({ createdAt: BASE });
  // Newer by createdAt but with an id that sorts before m1's: createdAt must decide.
  const m2 = newMsg({ createdAt: BASE + 1000, id: newMessageId(BASE - 86_400_000) });
  t.ok(m2.id < m1.id, 'm2 has the smaller id');
  const tie = [
    newMsg({ createdAt: BASE + 2000 }),
    newMsg({ createdAt: BASE + 2000 }),
    newMsg({ createdAt: BASE + 2000 }),
  ];
  tie.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  t.ok(tie[0]!.id < tie[1]!.id && tie[1]!.id < tie[2]!.id, 'distinct tie ids');
  const [tieA, tieB, tieC] = tie as [NewMessage, NewMessage, NewMessage];
  // Insertion order differs from the expected order (insert order would be seq order).
  for (const m of [m2, tieA, m1, tieC, tieB]) messages.insertQueued(m);
  const settle = (id: string, status: 'sent' | 'failed') =>
    messages.settle(id, {
      status,
      reason: status === 'failed' ? 'timeout' : null,
      billedSegments: 0,
      at: BASE + 5000,
      handedOff: false,
    });
  settle(m1.id, 'sent');
  settle(tieB.id, 'sent');
  settle(m2.id, 'failed');

  const all = messages.list({ limit: 100, offset: 0 });
  t.same(
    all.rows.map((r) => r.id),
    [tieC.id, tieB.id, tieA.id, m2.id, m1.id],
  );
  t.equal(all.total, 5);
  t.same(
    all.rows.map((r) => r.status),
    ['queued', 'sent', 'queued', 'failed', 'sent'],
  );

  const page = messages.list({ limit: 2, offset: 1 });
  t.same(
    page.rows.map((r) => r.id),
    [tieB.id, tieA.id],
  );
  t.equal(page.total, 5, 'total ignores limit and offset');

  const sent = messages.list({ limit: 100, offset: 0, status: 'sent' });
  t.same(
    sent.rows.map((r) => r.id),
    [tieB.id, m1.id],
  );
  t.equal(sent.total, 2);
  const sentPage = messages.list({ limit: 1, offset: 1, status: 'sent' });
  t.same(
    sentPage.rows.map((r) => r.id),
    [m1.id],
  );
  t.equal(sentPage.total, 2);

  const queued = messages.list({ limit: 1, offset: 0, status: 'queued' });
  t.same(
    queued.rows.map((r) => r.id),
    [tieC.id],
  );
  t.equal(queued.total, 2);
  const failed = messages.list({ limit: 100, offset: 0, status: 'failed' });
  t.same(
    failed.rows.map((r) => r.id),
    [m2.id],
  );
  t.equal(failed.total, 1);

  const beyond = messages.list({ limit: 10, offset: 5 });
  t.same(beyond.rows, []);
  t.equal(beyond.total, 5);
  t.equal(messages.list({ limit: 10, offset: 0, status: undefined }).rows.length, 5);
});

t.test(
  'unfinishedHandoffs + settleInterrupted: queued messages whose hand-off did not complete become failed/interrupted',
  async (t) => {
    const { db, messages, stats } = open(t);
    const never = newMsg({ createdAt: BASE, segments: 2 }); // queued, hand-off never started
    const started = newMsg({ createdAt: BASE + 1000, segments: 3 }); // hand-off started, crash
    const handed = newMsg({ createdAt: BASE + 2000, segments: 4 }); // hand-off done, settle lost
    const sent = newMsg({ createdAt: BASE + 3000, segments: 1 });
    const failed = newMsg({ createdAt: BASE + 4000, segments: 1 });
    for (const m of [never, started, handed, sent, failed]) messages.insertQueued(m);
    messages.markHandoffStarted(started.id, BASE + 1100);
    messages.markHandoffStarted(handed.id, BASE + 2100);
    db.prepare('UPDATE messages SET handed_off_at = 1 WHERE id = ?').run(handed.id);
    messages.settle(sent.id, { status: 'sent', reason: null, billedSegments: 1, at: BASE + 3100, handedOff: true });
    messages.settle(failed.id, {
      status: 'failed',
      reason: 'timeout',
      billedSegments: 0,
      at: BASE + 4100,
      handedOff: false,
    });
    const before = stats.allTime();
    t.same(before, { accepted: 5, sent: 1, failed: 1, cancelled: 0, queued: 3, segments: 11, billedSegments: 1 });

    const at = BASE + 60_000;
    const unfinished = messages.unfinishedHandoffs();
    t.same(
      unfinished.map((u) => u.row.id),
      [never.id, started.id],
      'the two interrupted rows, in acceptance order',
    );
    t.same(
      unfinished.map((u) => u.group),
      [null, null],
      'no process group was recorded for them',
    );
    const recovered = messages.settleInterrupted(
      unfinished.map((u) => u.row.id),
      at,
    );
    t.same(recovered.map((r) => r.id).sort(), [never.id, started.id].sort(), 'the two interrupted rows are returned');
    t.ok(
      recovered.every((r) => r.status === 'failed' && r.reason === 'interrupted' && r.updatedAt === at),
      'as they are now',
    );

    t.match(messages.get(never.id), {
      status: 'failed',
      reason: 'interrupted',
      handedOffAt: null,
      billedSegments: 0,
      updatedAt: at,
      handoffStartedAt: null,
    });
    t.match(messages.get(started.id), {
      status: 'failed',
      reason: 'interrupted',
      handedOffAt: null,
      billedSegments: 0,
      updatedAt: at,
      handoffStartedAt: BASE + 1100,
    });
    t.match(
      messages.get(handed.id),
      { status: 'queued', reason: null, handedOffAt: 1, updatedAt: handed.createdAt },
      'a handed-off message is left alone',
    );
    t.match(messages.get(sent.id), { status: 'sent', reason: null, updatedAt: BASE + 3100 });
    t.match(messages.get(failed.id), { status: 'failed', reason: 'timeout', updatedAt: BASE + 4100 });

    t.same(
      stats.allTime(),
      { ...before, failed: before.failed + 2, cancelled: 0, queued: before.queued - 2 },
      'two more failed, nothing billed',
    );
    t.same(messages.unfinishedHandoffs(), [], 'a second run finds nothing');
    t.same(messages.settleInterrupted([handed.id, sent.id], at + 1), [], 'and settles nothing that is not interrupted');
    t.same(stats.allTime().failed, 3, 'and counts nothing');
  },
);

t.test(
  'byIdempotencyKey finds a row by key; the key is unique; saveResponse stores status and JSON body',
  async (t) => {
    const { messages, stats } = open(t);
    const m = newMsg({ idempotencyKey: 'order-42', requestHash: 'abc123' });
    const other = newMsg({ createdAt: BASE + 1000, idempotencyKey: 'order-43', requestHash: 'def456' });
    messages.insertQueued(m);
    messages.insertQueued(other);
    t.equal(messages.byIdempotencyKey('order-42')?.id, m.id);
    t.equal(messages.byIdempotencyKey('order-42')?.requestHash, 'abc123');
    t.equal(messages.byIdempotencyKey('order-43')?.id, other.id);
    t.equal(messages.byIdempotencyKey('order-44'), undefined);
    t.equal(messages.byIdempotencyKey('ORDER-42'), undefined, 'keys are compared exactly');

    const body = {
      success: true,
      smsSent: true,
      data: { id: m.id, status: 'queued', segments: [1, 2], note: 'é "q"' },
    };
    messages.saveResponse(m.id, 200, body);
    const row = messages.byIdempotencyKey('order-42');
    t.equal(row?.responseStatus, 200);
    t.same(JSON.parse(row?.responseBody ?? 'null'), body);
    t.equal(messages.get(other.id)?.responseStatus, null, 'only that row');
    messages.saveResponse(other.id, 502, { success: false });
    t.match(messages.get(other.id), { responseStatus: 502, responseBody: '{"success":false}' });

    const before = stats.allTime();
    let caught: unknown;
    try {
      messages.insertQueued(newMsg({ createdAt: BASE + 2000, idempotencyKey: 'order-42', segments: 5 }));
    } catch (err) {
      caught = err;
    }
    t.equal(
      (caught as { code?: string } | undefined)?.code,
      'SQLITE_CONSTRAINT_UNIQUE',
      'a reused key is refused by the database',
    );
    t.equal(isStorageUnavailable(caught), false, 'and it is not a storage outage');
    t.same(stats.allTime(), before, 'the refused insert counted nothing (one transaction)');
    t.equal(messages.count(), 2);
  },
);

t.test(
  'handoffsSince returns hand-off starts with segments and path, oldest first, strictly newer than the time',
  async (t) => {
    const { messages } = open(t);
    const a = newMsg({ createdAt: BASE, segments: 1 });
    const b = newMsg({ createdAt: BASE + 1000, segments: 2, via: 'queue' });
    const c = newMsg({ createdAt: BASE + 2000, segments: 3 });
    const waiting = newMsg({ createdAt: BASE + 2500, segments: 4, via: 'queue' });
    messages.insertStarted(a, BASE + 10);
    messages.insertQueued(b);
    messages.insertQueued(waiting);
    t.equal(messages.markHandoffStarted(b.id, BASE + 1010), true);
    t.equal(messages.markHandoffStarted(b.id, BASE + 1020), false, 'a hand-off starts once');
    messages.insertStarted(c, BASE + 2010);
    messages.settle(c.id, { status: 'sent', reason: null, billedSegments: 3, at: BASE + 3000, handedOff: true });
    t.same(
      messages.handoffsSince(BASE - 1),
      [
        { at: BASE + 10, segments: 1, via: 'sync' },
        { at: BASE + 1010, segments: 2, via: 'queue' },
        { at: BASE + 2010, segments: 3, via: 'sync' },
      ],
      'settled or not; never a message still waiting',
    );
    t.same(messages.handoffsSince(BASE + 10), [
      { at: BASE + 1010, segments: 2, via: 'queue' },
      { at: BASE + 2010, segments: 3, via: 'sync' },
    ]);
    t.same(messages.handoffsSince(BASE + 2010), []);
  },
);

t.test('isStorageUnavailable classifies SQLite error codes', async (t) => {
  const err = (code: string) => Object.assign(new Error(code), { code });
  t.equal(isStorageUnavailable(err('SQLITE_READONLY')), true);
  t.equal(isStorageUnavailable(err('SQLITE_READONLY_DBMOVED')), true);
  t.equal(isStorageUnavailable(err('SQLITE_FULL')), true);
  t.equal(isStorageUnavailable(err('SQLITE_IOERR_WRITE')), true);
  t.equal(isStorageUnavailable({ code: 'SQLITE_IOERR' }), true, 'any object with the code');
  t.equal(isStorageUnavailable(err('SQLITE_CONSTRAINT_UNIQUE')), false);
  t.equal(isStorageUnavailable(err('SQLITE_ERROR')), false);
  t.equal(isStorageUnavailable(err('EACCES')), false);
  t.equal(isStorageUnavailable(new Error('disk is full')), false, 'a plain Error');
  t.equal(isStorageUnavailable({ code: 28 }), false, 'a non-string code');
  t.equal(isStorageUnavailable(undefined), false);
  t.equal(isStorageUnavailable(null), false);
  t.equal(isStorageUnavailable('SQLITE_FULL'), false, 'a bare string is not an error');
});

t.test('a real write refusal (query_only) is a storage outage and leaves nothing behind', async (t) => {
  const { db, messages, stats } = open(t);
  messages.insertQueued(newMsg());
  const before = stats.allTime();
  db.pragma('query_only = ON');
  let caught: unknown;
  try {
    messages.insertQueued(newMsg({ createdAt: BASE + 1000 }));
  } catch (err) {
    caught = err;
  }
  t.ok(caught instanceof Error, 'the insert threw');
  t.equal((caught as { code?: string }).code, 'SQLITE_READONLY');
  t.equal(isStorageUnavailable(caught), true);
  t.same(stats.allTime(), before, 'reads keep working and nothing was counted');
  t.equal(messages.count(), 1);
  db.pragma('query_only = OFF');
  messages.insertQueued(newMsg({ createdAt: BASE + 2000 }));
  t.equal(messages.count(), 2, 'writes work again');
});

t.test('stats: a day with nothing is all zeros; month sums that month only', async (t) => {
  const { messages, stats } = open(t);
  t.same(stats.day('2026-11-22'), ZERO);
  t.same(stats.month('2026-11'), ZERO);
  t.same(stats.allTime(), ZERO);

  const put = (statsDay: string, segments: number, outcome: 'sent' | 'failed' | 'queued') => {
    const m = newMsg({ statsDay, segments });
    messages.insertQueued(m);
    if (outcome !== 'queued') {
      messages.settle(m.id, {
        status: outcome,
        reason: outcome === 'failed' ? 'timeout' : null,
        billedSegments: outcome === 'sent' ? segments : 0,
        at: BASE,
        handedOff: outcome === 'sent',
      });
    }
  };
  put('2026-10-31', 7, 'sent'); // previous month, last day
  put('2026-11-01', 1, 'sent'); // first day
  put('2026-11-15', 2, 'failed');
  put('2026-11-15', 4, 'queued');
  put('2026-11-30', 3, 'sent'); // last day
  put('2026-12-01', 11, 'failed'); // next month, first day
  put('2025-11-15', 13, 'sent'); // same month, other year

  t.same(stats.month('2026-11'), {
    accepted: 4,
    sent: 2,
    failed: 1,
    cancelled: 0,
    queued: 1,
    segments: 10,
    billedSegments: 4,
  });
  t.same(stats.month('2026-10'), {
    accepted: 1,
    sent: 1,
    failed: 0,
    cancelled: 0,
    queued: 0,
    segments: 7,
    billedSegments: 7,
  });
  t.same(stats.month('2026-12'), {
    accepted: 1,
    sent: 0,
    failed: 1,
    cancelled: 0,
    queued: 0,
    segments: 11,
    billedSegments: 0,
  });
  t.same(stats.month('2025-11'), {
    accepted: 1,
    sent: 1,
    failed: 0,
    cancelled: 0,
    queued: 0,
    segments: 13,
    billedSegments: 13,
  });
  t.same(stats.day('2026-11-15'), {
    accepted: 2,
    sent: 0,
    failed: 1,
    cancelled: 0,
    queued: 1,
    segments: 6,
    billedSegments: 0,
  });
  t.same(stats.day('2026-11-16'), ZERO, 'a day with nothing, between busy days');
  t.same(stats.allTime(), {
    accepted: 7,
    sent: 4,
    failed: 2,
    cancelled: 0,
    queued: 1,
    segments: 41,
    billedSegments: 24,
  });
});

t.test('the day a message counts on is its statsDay, also when it settles later', async (t) => {
  const { messages, stats } = open(t);
  const m = newMsg({ statsDay: '2026-11-21', segments: 2 });
  messages.insertQueued(m);
  messages.settle(m.id, { status: 'sent', reason: null, billedSegments: 2, at: BASE + 86_400_000, handedOff: true });
  t.same(stats.day('2026-11-21'), { ...ZERO, accepted: 1, sent: 1, segments: 2, billedSegments: 2 });
  t.same(stats.day('2026-11-22'), ZERO);
});

t.test('the hand-off process group: committed on its own, and full sync again after it', async (t) => {
  const { db, path, messages } = open(t);
  const m = newMsg();
  messages.insertQueued(m);
  t.ok(messages.markHandoffStarted(m.id, BASE + 1));
  messages.recordHandoffProcess(m.id, { pgid: 4242, boot: 'boot-1', startTicks: 77 });
  t.equal(db.pragma('synchronous', { simple: true }), 2, 'synchronous = FULL again after the write');
  t.notOk(db.inTransaction);
  // Committed (another connection sees it): a gateway killed now leaves it for the next start.
  const other = openDatabase(path);
  t.teardown(() => other.close());
  const [found] = createMessageStore(other, createStatsStore(other)).unfinishedHandoffs();
  t.equal(found?.row.id, m.id);
  t.same(found?.group, { pgid: 4242, boot: 'boot-1', startTicks: 77 });
});

t.test('claimedSmsStoreIds: which of the asked store ids a message holds, through its index', async (t) => {
  const { db, messages } = open(t);
  for (const [i, storeId] of [101, 102, 103].entries()) {
    const m = newMsg({ id: newMessageId(BASE + i), createdAt: BASE + i });
    messages.insertQueued(m);
    t.ok(
      messages.settle(m.id, {
        status: 'sent',
        reason: null,
        billedSegments: 1,
        at: BASE + 10,
        handedOff: true,
        smsStoreId: storeId,
      }),
    );
  }
  messages.insertQueued(newMsg({ id: newMessageId(BASE + 9), createdAt: BASE + 9 })); // no store id
  t.same(
    [...messages.claimedSmsStoreIds([102, 103, 104, 7])].sort(),
    [102, 103],
    'only the asked ones that are claimed',
  );
  t.same([...messages.claimedSmsStoreIds([])], [], 'nothing asked: nothing (no read of the history)');
  const plan = db.prepare(`EXPLAIN QUERY PLAN ${CLAIMED_AMONG_SQL}`).all({ ids: '[1]' }) as { detail: string }[];
  t.ok(
    plan.some((p) => p.detail.includes('USING COVERING INDEX messages_sms_store_id')),
    `a search of the index, not a scan of the history: ${plan.map((p) => p.detail).join('; ')}`,
  );
});

t.test(
  "which hand-off marks are fsync'd: the start and the settlement; the handed-off mark and the process group are not",
  async (t) => {
    const dir = tempDir(t);
    const db = openDatabase(join(dir, 'gateway.db'));
    t.teardown(() => db.close());
    // Every row written notes the synchronous level its statement ran at (2 FULL: its commit
    // is fsync'd; 1 NORMAL: it is not), read from SQLite's own pragma_synchronous by temporary
    // triggers of this connection on every table: the store is neither wrapped nor read.
    const writes: number[] = [];
    db.function('note_write', (level: unknown) => {
      writes.push(Number(level));
      return null;
    });
    const tables = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[];
    for (const table of tables) {
      for (const op of ['INSERT', 'UPDATE']) {
        db.exec(
          `CREATE TEMP TRIGGER "note_${op}_${table}" AFTER ${op} ON main."${table}" BEGIN SELECT note_write(synchronous) FROM pragma_synchronous; END`,
        );
      }
    }
    const messages = createMessageStore(db, createStatsStore(db));
    const m = newMsg();
    messages.insertQueued(m);
    const levelOf = (step: () => void) => {
      writes.length = 0;
      step();
      t.equal(Number(db.pragma('synchronous', { simple: true })), 2, 'FULL again afterwards');
      return [...new Set(writes)];
    };
    t.same(
      levelOf(() => t.ok(messages.markHandoffStarted(m.id, BASE + 1))),
      [2],
      "the hand-off start: fsync'd (never sent twice)",
    );
    // The first lazy mark of a store's life too (SQLite applies a synchronous setting when it
    // compiles the statement: a PRAGMA prepared once did nothing at its first run).
    t.same(
      levelOf(() => messages.recordHandoffProcess(m.id, { pgid: 4242, boot: 'b', startTicks: 7 })),
      [1],
      "the process group: not fsync'd",
    );
    t.same(
      levelOf(() => messages.markHandedOff(m.id, BASE + 2)),
      [1],
      "the handed-off mark: not fsync'd",
    );
    t.same(
      levelOf(() =>
        t.ok(messages.settle(m.id, { status: 'sent', reason: null, billedSegments: 1, at: BASE + 3, handedOff: true })),
      ),
      [2],
      "the settlement: fsync'd, and with it the marks before",
    );
    t.match(messages.get(m.id), { status: 'sent', handedOffAt: BASE + 2 }, 'the lazy mark was kept');
  },
);
