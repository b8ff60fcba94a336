// Months in a drawer: the phone's clock changes, the disk fills up, the WAL stays bounded.
import t from 'tap';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { recordingSender, testApp } from '../helpers/test-app.js';
import { WAL_SIZE_LIMIT } from '../../src/store/database.js';
import { REWRITE_EVERY_MS } from '../../src/sms/settle.js';

const to = '12345';

t.test('a clock jumping backwards does not open the send budget', async (t) => {
  const { send, clock } = await testApp(t);
  t.equal((await send({ to, message: 'a'.repeat(153 * 60) })).statusCode, 200, '60 segments: the budget is full');
  clock.set(clock.now() - 3600_000); // the phone's clock is set an hour back
  const res = await send({ to, message: 'b' });
  t.equal(res.statusCode, 429, 'still full: the budget runs on the monotonic clock');
  t.equal(res.json().retryAfterSeconds, 59);
});

t.test('a clock jumping backwards does not stall the budget or the spacing', async (t) => {
  const { send, clock } = await testApp(t);
  t.equal((await send({ to, message: 'a' })).statusCode, 200);
  clock.set(clock.now() - 86_400_000); // a day back
  t.equal((await send({ to, message: 'b' })).statusCode, 200, '1 s later (monotonic) the next send goes');
  t.equal(
    (await send({ to, message: 'a'.repeat(153 * 58) })).statusCode,
    200,
    'and the budget counts from real elapsed time',
  );
});

t.test('a clock jumping forwards does not open the budget either', async (t) => {
  const { send, clock } = await testApp(t);
  t.equal((await send({ to, message: 'a'.repeat(153 * 60) })).statusCode, 200);
  clock.set(clock.now() + 86_400_000);
  t.equal((await send({ to, message: 'b' })).statusCode, 429);
});

t.test('disk full: sends answer 503 storage_unavailable, reads keep working, it recovers by itself', async (t) => {
  const { send, get, db, handoffs } = await testApp(t);
  t.equal((await send({ to, message: 'before' })).statusCode, 200);
  const pages = db.pragma('page_count', { simple: true }) as number;
  db.pragma(`max_page_count = ${pages}`); // SQLite now fails every growth with SQLITE_FULL
  let full;
  for (let i = 0; i < 50; i++) {
    full = await send({ to, message: `fill ${i} ${'x'.repeat(1500)}` });
    if (full.statusCode === 503) break;
  }
  t.equal(full!.statusCode, 503);
  t.same(full!.json().error.code, 'storage_unavailable');
  const sentBefore = handoffs.length;
  // As large as the fills: a short row could still fit the free space of a page.
  t.equal((await send({ to, message: `during ${'x'.repeat(1500)}` })).statusCode, 503);
  t.equal(handoffs.length, sentBefore, 'nothing is handed off without a committed record');
  t.equal((await get('/api/messages')).statusCode, 200, 'reads keep working');
  t.equal((await get('/api/stats')).statusCode, 200);
  const diag = (await get('/api/diagnostics')).json().data;
  t.equal(diag.status, 'failing');
  t.equal(diag.checks.database.value.lastWriteError.code, 'SQLITE_FULL');
  t.match(diag.checks.database.hint, /cannot be written \(SQLITE_FULL\): free some space/);
  db.pragma('max_page_count = 1073741823'); // space again
  t.equal((await send({ to, message: 'after' })).statusCode, 200, 'recovered without a restart');
  t.equal((await get('/api/diagnostics')).json().data.checks.database.status, 'ok');
});

t.test('the WAL is bounded', async (t) => {
  const { db, home } = await testApp(t);
  t.equal(db.pragma('journal_size_limit', { simple: true }), WAL_SIZE_LIMIT);
  const insert = db.prepare(
    `INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
  );
  // One big transaction grows the WAL past the limit (it cannot be checkpointed midway).
  db.transaction(() => {
    for (let i = 0; i < 2500; i++) insert.run(`k${i}`, 'x'.repeat(4000));
  })();
  const grown = statSync(join(home, 'gateway.db-wal')).size;
  t.ok(grown > 2 * WAL_SIZE_LIMIT, `the WAL grew to ${grown} bytes`);
  db.pragma('wal_checkpoint(PASSIVE)');
  insert.run('last', 'y');
  const after = statSync(join(home, 'gateway.db-wal')).size;
  t.ok(after <= WAL_SIZE_LIMIT, `cut back to ${after} bytes after a checkpoint`);
});

t.test(
  'the disk fails during a hand-off: the answer stays true, replays say the same, the record is written later',
  async (t) => {
    const made: { app?: Awaited<ReturnType<typeof testApp>> } = {};
    const { sender } = recordingSender(() => {
      made.app!.db.pragma('query_only = ON'); // the disk refuses writes while the SMS goes out
      return { ok: true };
    });
    const app = (made.app = await testApp(t, { sender }));
    const { send, db, gateway, get } = app;
    const first = await send({ to, message: 'it went out' }, { 'idempotency-key': 'disk' });
    t.equal(first.statusCode, 200, 'the SMS went out: 200');
    const replay = await send({ to, message: 'it went out' }, { 'idempotency-key': 'disk' });
    t.equal(replay.statusCode, 200, 'a replay says the same, not 502 interrupted');
    t.same(replay.json(), first.json());
    const id = first.json().messageId;
    t.match(gateway.sending.messages.get(id), { status: 'queued', handedOffAt: null }, 'not written yet');
    t.equal((await get('/api/diagnostics')).json().data.checks.database.status, 'failing');
    db.pragma('query_only = OFF');
    t.equal(gateway.sending.settler.flush(), 0, 'written once the disk allows');
    t.match(gateway.sending.messages.get(id), { status: 'sent', reason: null });
    t.equal(gateway.sending.messages.unfinishedHandoffs().length, 0, 'nothing for a restart to call interrupted');
    t.same((await send({ to, message: 'it went out' }, { 'idempotency-key': 'disk' })).json(), first.json());
    t.equal((await get('/api/diagnostics')).json().data.checks.database.status, 'ok');
  },
);

t.test('an outcome the disk refused is rewritten by itself, every 30 s until the disk allows', async (t) => {
  const made: { app?: Awaited<ReturnType<typeof testApp>> } = {};
  const { sender } = recordingSender(() => {
    made.app!.db.pragma('query_only = ON');
    return { ok: true };
  });
  const app = (made.app = await testApp(t, { sender }));
  const { send, db, gateway, clock } = app;
  const id = (await send({ to, message: 'later' })).json().messageId;
  t.match(gateway.sending.messages.get(id), { status: 'queued', handedOffAt: null }, 'not written yet');
  clock.advance(REWRITE_EVERY_MS);
  t.match(gateway.sending.messages.get(id), { status: 'queued' }, 'still refused at 30 s: kept');
  db.pragma('query_only = OFF');
  clock.advance(REWRITE_EVERY_MS - 1);
  t.match(gateway.sending.messages.get(id), { status: 'queued' }, 'not before the next 30 s');
  clock.advance(1);
  t.match(
    gateway.sending.messages.get(id),
    { status: 'sent', reason: null },
    'written at the next try, without a call',
  );
});
