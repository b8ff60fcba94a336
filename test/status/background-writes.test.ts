// Diagnostics sees every write (issue 34, case 8): with the database refusing writes
// (query_only: SQLITE_READONLY, as a read-only file gives) while only background work
// writes (the queue's hand-off mark, an inbox poll's commit), GET /api/diagnostics shows
// the database check failing with lastWriteError at once; once writes work again, the
// next background write clears it, with no API send in between (also an error an API
// send reported). With no traffic at all, the error clears within 30 s of the disk taking
// writes again (a probe on the clock while failing only), and no probe runs while healthy.
import t, { type Test } from 'tap';
import { fakeTermux } from '../helpers/fake-termux.js';
import { testApp } from '../helpers/test-app.js';

type App = Awaited<ReturnType<typeof testApp>>;

const TO = '+15550001111';

async function databaseCheck(t: Test, a: App) {
  const res = await a.get('/api/diagnostics');
  t.equal(res.statusCode, 200, 'diagnostics answers');
  return res.json().data.checks.database as {
    status: string;
    value: { lastWriteError: { code: string; at: string } | null };
  };
}

t.test("a queued message's hand-off mark refused, then taken", async (t) => {
  const a = await testApp(t);
  const sendAt = new Date(a.clock.now() + 60_000).toISOString();
  t.equal((await a.queue({ to: TO, message: 'later', sendAt })).statusCode, 202);
  t.equal((await databaseCheck(t, a)).status, 'ok', 'ok before');
  a.db.pragma('query_only = ON');
  await a.clock.tick(60_000); // due: the lane marks the hand-off, and the disk refuses it
  t.equal(a.handoffs.length, 0, 'nothing handed off without its mark');
  const failing = await databaseCheck(t, a);
  t.equal(failing.status, 'failing', 'failing at once, with no API write');
  t.match(failing.value.lastWriteError, { code: 'SQLITE_READONLY', at: new Date(a.clock.now()).toISOString() });
  a.db.pragma('query_only = OFF');
  await a.clock.tick(30_000); // the lane's retry: the mark and the settlement are written
  t.equal(a.handoffs.length, 1, 'handed off once the disk took the mark');
  const ok = await databaseCheck(t, a);
  t.equal(ok.status, 'ok', 'cleared by the background write');
  t.equal(ok.value.lastWriteError, null);
});

/** An app whose inbox watcher reads a fake termux-sms-list; its baseline is taken. */
async function withInbox(t: Test) {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const a = await testApp(t, { inbox: true, deviceEnv: fake.env });
  const sms = (id: number, received: string) => ({
    _id: id,
    threadid: 3,
    type: 'inbox',
    read: false,
    address: '+4915112345678',
    received,
    body: `sms ${id}`,
  });
  const old = sms(10, '2026-11-20 08:00:00');
  fake.output('termux-sms-list', JSON.stringify([old]));
  await a.gateway.inbox.watcher.pollOnce();
  return { a, fake, sms, old };
}

t.test("an inbox poll's commit refused, then the next poll's taken", async (t) => {
  const { a, fake, sms, old } = await withInbox(t);
  t.equal((await databaseCheck(t, a)).status, 'ok', 'ok before');
  a.db.pragma('query_only = ON');
  fake.output('termux-sms-list', JSON.stringify([old, sms(11, '2026-11-21 12:00:01')]));
  await a.gateway.inbox.watcher.pollOnce().catch(() => undefined);
  const failing = await databaseCheck(t, a);
  t.equal(failing.status, 'failing', 'failing at once');
  t.equal(failing.value.lastWriteError?.code, 'SQLITE_READONLY');
  a.db.pragma('query_only = OFF');
  fake.output('termux-sms-list', JSON.stringify([old, sms(11, '2026-11-21 12:00:01'), sms(12, '2026-11-21 12:00:02')]));
  await a.gateway.inbox.watcher.pollOnce();
  const inbox = (await a.get('/api/inbox')).json().data as { body: string }[];
  t.ok(
    inbox.some((m) => m.body === 'sms 12'),
    'the next poll committed',
  );
  const ok = await databaseCheck(t, a);
  t.equal(ok.status, 'ok', 'cleared by the inbox commit');
  t.equal(ok.value.lastWriteError, null);
});

t.test('an API send refused by the disk, then only background writes: the error clears', async (t) => {
  const { a, fake, sms, old } = await withInbox(t);
  a.db.pragma('query_only = ON');
  t.equal((await a.send({ to: TO, message: 'refused' })).statusCode, 503);
  t.equal((await databaseCheck(t, a)).value.lastWriteError?.code, 'SQLITE_READONLY');
  a.db.pragma('query_only = OFF');
  fake.output('termux-sms-list', JSON.stringify([old, sms(11, '2026-11-21 12:00:01')]));
  await a.gateway.inbox.watcher.pollOnce(); // the only write since: the inbox's commit
  const ok = await databaseCheck(t, a);
  t.equal(ok.status, 'ok', 'not failing with the old error');
  t.equal(ok.value.lastWriteError, null);
});

t.test('the disk takes writes again with no traffic at all: ok within 30 s; no timer while healthy', async (t) => {
  const a = await testApp(t);
  t.equal(a.clock.pendingTimers(), 0, 'no timer while healthy');
  a.db.pragma('query_only = ON');
  t.equal((await a.send({ to: TO, message: 'refused' })).statusCode, 503);
  await a.clock.tick(30_000);
  const still = await databaseCheck(t, a);
  t.equal(still.status, 'failing', 'still failing while the disk refuses (the probe is refused too)');
  t.equal(still.value.lastWriteError?.code, 'SQLITE_READONLY');
  a.db.pragma('query_only = OFF');
  await a.clock.tick(30_000); // nothing else writes: no request, no queue, no inbox
  const ok = await databaseCheck(t, a);
  t.equal(ok.status, 'ok', 'ok again within 30 s, without traffic');
  t.equal(ok.value.lastWriteError, null);
  await a.clock.tick(60_000);
  t.equal(a.clock.pendingTimers(), 0, 'and the probe stops once healthy');
});
